function mebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}

/** Text the agent shows the model or the embedder, kept in one place for a future locale. */
export const agentText = {
  deniedByPolicy: (tool: string, list: 'deny' | 'allow', visible: readonly string[]): string =>
    `tool call denied by policy: ${tool} is ${list === 'deny' ? 'on the deny list' : 'not on the allow list'}; available tools: ${
      visible.length > 0 ? visible.join(', ') : 'none'
    }`,
  providerRequired:
    'createAgent needs a provider: pass an object with a name and a complete(request) method, e.g. new OpenAIProvider({ apiKey, model }).',
  notATool: (index: number): string =>
    `tools[${index}] is not a tool: build tools with defineTool({ name, description, parameters, run }) or workspaceTools({ workdir }).`,
  duplicateTool: (name: string): string =>
    `two tools are named ${JSON.stringify(name)}: tool names must be unique within an agent.`,
  notAMiddleware: (index: number): string =>
    `middleware[${index}] is not a function: a middleware is (ctx, next) => Promise<ToolExecutionResult>.`,
  badPolicy: (field: string): string =>
    `policy.${field} must be an array of tool names, e.g. { ${field}: ['shell'] }.`,
  policyNotAnObject:
    "policy must be an object with allow and/or deny lists of tool names, e.g. { deny: ['shell'] }.",
  policyUnknownField: (fields: readonly string[]): string =>
    `policy has ${fields.map((f) => JSON.stringify(f)).join(', ')}, which ${fields.length === 1 ? 'is not a policy field' : 'are not policy fields'}: a policy has only allow and deny.`,
  unknownPolicyName: (
    field: 'allow' | 'deny',
    name: string,
    closest: string | undefined,
    known: readonly string[],
  ): string =>
    `policy.${field} names ${JSON.stringify(name)}, which is not a tool of this agent${
      closest === undefined ? '' : ` (did you mean ${JSON.stringify(closest)}?)`
    }: ${
      known.length > 0
        ? `its tools are ${known.join(', ')}; correct the name, or remove it`
        : 'it has no tools; remove the entry, or pass the tool in tools'
    }. Tool names are compared exactly, case included.`,
  badPositiveInteger: (field: string, value: unknown): string =>
    `${field} must be an integer of at least 1, got ${JSON.stringify(value) ?? String(value)}.`,
  badMode: (value: unknown, modes: readonly string[]): string =>
    `mode must be one of ${modes.join(', ')}, got ${JSON.stringify(value) ?? String(value)}.`,
  badWorkdir: (value: unknown): string =>
    `workdir must be a directory path, got ${JSON.stringify(value) ?? String(value)}.`,
  badSystemPrompt: (value: unknown): string =>
    `systemPrompt must be a non-empty string, got ${JSON.stringify(value) ?? String(value)}: pass the text that replaces the built-in system prompt, or leave systemPrompt out to keep it.`,
  projectContextTrue:
    'projectContext: true is no longer accepted: core reads no project file by itself. To send AGENTS.md and the project skills, pass projectContext: workspaceContext() (workspaceContext from @tiny-claw/workspace); leave it out for none.',
  notAProjectContext:
    'projectContext must be a project context, an object with a load({ prompt, workdir }) method, e.g. workspaceContext() from @tiny-claw/workspace.',
  badPrompt: 'the prompt must be a string.',
  promptTooLarge: (bytes: number, limit: number, atLeast: boolean): string =>
    `${
      atLeast
        ? `the prompt is over the ${mebibytes(limit)} limit (reading stopped after ${bytes.toLocaleString('en-US')} bytes)`
        : `the prompt is ${mebibytes(bytes)} (${bytes.toLocaleString('en-US')} bytes of UTF-8), over the ${mebibytes(limit)} limit`
    }; nothing was sent or stored. Shorten it, or save the material as a file in the workdir and ask the agent to read it.`,
  notAGate:
    'approvals must be an approval gate (createApprovalGate from @tiny-claw/approval): an object with middleware, saveCheckpoint, claim and complete.',
  noGate:
    'this agent cannot resume approvals: create it with an approval gate, e.g. createAgent({ approvals: createApprovalGate({ … }) }).',
  badRunState: (detail: string): string =>
    `the run state cannot be resumed: ${detail || 'it is not a run state'}. Pass RunResult.state of a paused run (as JSON read back, if you stored it).`,
  badDecisions:
    'decisions must be a non-empty list of { id, approve } objects, e.g. [{ id: result.approvalId, approve: true }] (reason and actor are optional strings).',
  notWaiting: (id: string, waiting: readonly (string | undefined)[]): string =>
    `approval ${id} is not one this run state waits on (${
      waiting.length > 0 ? `it waits on ${waiting.join(', ')}` : 'it waits on none'
    }); nothing was decided.`,
  decidedTwice: (id: string): string =>
    `approval ${id} is decided twice in the same resume: give one decision per approval.`,
  badDecision: (value: unknown): string =>
    `decision must be 'approve' or 'reject', got ${JSON.stringify(value) ?? String(value)}.`,
  badActor: 'actor must name who decided, e.g. "cli:alice".',
  badSession: (value: unknown): string =>
    `session must be a session name or a resolved session, got ${JSON.stringify(value) ?? String(value)}.`,
};
