import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentOptions,
  type CompleteOptions,
  createAgent,
  type LLMProvider,
  type LLMRequest,
  type LLMResponse,
  type RunEvent,
  type RunResult,
  type Tool,
} from '@tiny-claw/core';
import { ScriptedProvider, type ScriptedTurn } from '@tiny-claw/core/testing';
import { workspaceTools } from '@tiny-claw/tools';
import { createFileStore } from '@tiny-claw/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exploreTool } from './explore-tool.js';

let root: string;
let workdir: string;
let stateDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-claw-explore-'));
  workdir = join(root, 'repo');
  stateDir = join(root, 'state');
  await (await import('node:fs/promises')).mkdir(workdir);
  await writeFile(join(workdir, 'config.ts'), 'export const port = readPort();\n// see ports.ts\n');
  await writeFile(
    join(workdir, 'ports.ts'),
    'export const PORT = 8431; // SENTINEL-7f3a-ONLY-IN-PORTS\n',
  );
  await writeFile(join(workdir, 'other.ts'), 'const unrelated = "ALPHA-UNREPORTED-CONTENT";\n');
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** The workspace's read tool: read-only, so an explorer may be given it. */
function readTool(): Tool {
  const [read] = workspaceTools({ workdir, enabled: ['read'] });
  if (!read) throw new Error('no read tool');
  return read.readOnly ? read : { ...read, readOnly: true };
}

/** A turn, or a turn worked out from what the model was sent (so it can only repeat what it saw). */
type Turn = ScriptedTurn | ((request: LLMRequest) => ScriptedTurn);

/** A scripted model whose turns may answer from their request: it knows only what it was sent. */
class ReplyingProvider implements LLMProvider {
  readonly name = 'scripted';
  readonly model = 'scripted';
  readonly requests: LLMRequest[] = [];
  #next = 0;
  constructor(private readonly turns: readonly Turn[]) {}
  complete(request: LLMRequest, options?: CompleteOptions): Promise<LLMResponse> {
    this.requests.push(request);
    const turn = this.turns[this.#next++] ?? { text: '(script exhausted)' };
    const scripted = typeof turn === 'function' ? turn(request) : turn;
    return new ScriptedProvider({ turns: [scripted] }).complete(request, options);
  }
}

/** Every tool answer the request carries, in order. */
const toolAnswers = (request: LLMRequest): string[] =>
  request.messages.filter((m) => m.role === 'tool').map((m) => m.content);

async function run(
  turns: Turn[],
  options: Partial<AgentOptions> = {},
  prompt = 'where is the port set?',
): Promise<{
  result: RunResult;
  events: RunEvent[];
  finish: Extract<RunEvent, { type: 'run.finish' }>;
  provider: ReplyingProvider;
}> {
  const provider = new ReplyingProvider(turns);
  const agent = createAgent({
    provider,
    workdir,
    store: createFileStore(stateDir),
    tools: [exploreTool({ tools: [readTool()] })],
    ...options,
  });
  const events: RunEvent[] = [];
  // A named session: these tests read what the runs remember.
  const result = await agent.run(prompt, {
    session: 'default',
    onEvent: (event) => void events.push(event),
  });
  const finish = events.find(
    (event): event is Extract<RunEvent, { type: 'run.finish' }> =>
      event.type === 'run.finish' && event.runId === result.runId,
  );
  if (!finish) throw new Error('no run.finish');
  return { result, events, finish, provider };
}

async function memoryOf(sessionKey: string): Promise<string> {
  return readFile(join(stateDir, 'sessions', sessionKey, 'memory.jsonl'), 'utf8').catch(() => '');
}

const explore = (task: string, extra: Record<string, unknown> = {}, id = 'p1'): ScriptedTurn => ({
  tool_calls: [{ id, name: 'explore', arguments: { task, ...extra } }],
});
const read = (path: string, id: string): ScriptedTurn => ({
  tool_calls: [{ id, name: 'read', arguments: { path } }],
});

describe('the explore tool', () => {
  it('answers with what only the child read, though the parent was never shown read, and keeps the child out of the parent history and memory', async () => {
    // The child answers with the line it read; the parent answers with the report it got. Neither
    // script names the sentinel: it can only reach the answer through a read that worked.
    const { result, events, finish, provider } = await run([
      explore('Find where the port number is defined'),
      read('config.ts', 'c1'),
      read('ports.ts', 'c2'),
      (request) => ({ text: `Found: ${toolAnswers(request).at(-1) ?? '(nothing)'}` }),
      (request) => ({ text: `From the explorer: ${toolAnswers(request).at(-1) ?? '(nothing)'}` }),
    ]);

    const childReads = events.filter(
      (e) => e.type === 'tool.end' && (e.call.id === 'c1' || e.call.id === 'c2'),
    );
    expect(childReads.map((e) => e.type === 'tool.end' && e.output.isError)).toEqual([
      false,
      false,
    ]);
    // The parent's model saw the file's content only inside the explorer's report.
    const parentRequests = provider.requests.filter((r) =>
      r.messages.some((m) => m.role === 'user' && m.content === 'where is the port set?'),
    );
    expect(parentRequests).toHaveLength(2);
    for (const request of parentRequests) {
      const seen = request.messages.filter((m) => m.content.includes('SENTINEL-7f3a'));
      expect(seen.every((m) => m.role === 'tool' && m.toolCallId === 'p1')).toBe(true);
    }
    expect(parentRequests[1]?.tools.map((t) => t.name)).toEqual(['explore']);
    expect(result.stopReason).toBe('final');
    expect(result.text).toContain('SENTINEL-7f3a-ONLY-IN-PORTS');
    const parentSteps = events.filter((e) => e.type === 'step.start' && e.runId === result.runId);
    expect(parentSteps.every((e) => e.type === 'step.start' && e.tools.join() === 'explore')).toBe(
      true,
    );

    // The parent's history holds the report as the explore answer and nothing of the child's calls.
    const history = finish.state.messages;
    const answer = history.find((m) => m.role === 'tool' && m.toolCallId === 'p1');
    expect(answer?.content).toMatch(
      /^\[Explorer Subagent Report\]\nchild_session=parent-.+-explore-[0-9a-f]{12}\nstop_reason=final\n\nFound: .*export const PORT = 8431; \/\/ SENTINEL-7f3a-ONLY-IN-PORTS/,
    );
    const ids = history.flatMap((m) => [
      ...(m.toolCalls ?? []).map((c) => c.id),
      m.toolCallId ?? '',
    ]);
    expect(ids).not.toContain('c1');
    expect(ids).not.toContain('c2');

    // The child's memory holds its task and report; the parent's, only its own prompt and answer.
    const childKey = /child_session=(\S+)/.exec(answer?.content ?? '')?.[1] ?? '';
    const childMemory = await memoryOf(childKey);
    expect(childMemory).toContain('Find where the port number is defined');
    expect(childMemory).toContain('[Explorer Subagent Report]');
    expect(childMemory).not.toContain('export const port = readPort()');
    const parentMemory = await memoryOf(result.sessionKey);
    expect(parentMemory).toContain('where is the port set?');
    expect(parentMemory).not.toContain('readPort');
    expect(parentMemory).not.toContain('Find where the port number is defined');
  });

  it('logs where the explorer runs, its workdir and provider, on its start and finish lines', async () => {
    const lines: string[] = [];
    const log = (line: string) => void lines.push(line);
    await run([explore('Find the port'), { text: 'PORT is in ports.ts' }, { text: 'done' }], {
      logger: { debug() {}, info: log, warn: log, error: log },
    });
    const explorer = lines.filter((line) => line.startsWith('[subagent] explorer'));
    expect(explorer).toHaveLength(2);
    for (const line of explorer) {
      expect(line).toContain(` workdir=${workdir} `);
      expect(line).toContain(' provider=scripted model=scripted ');
    }
    expect(explorer[0]).toMatch(/^\[subagent\] explorer started parent_session=\S+ child_session=/);
    expect(explorer[1]).toMatch(
      /^\[subagent\] explorer finished child_session=\S+ .* stop_reason=final/,
    );
  });

  it('gives the child no read when the policy denies it, and the report says so', async () => {
    const { result, events } = await run(
      [
        explore('Find the port'),
        read('ports.ts', 'c1'),
        { text: 'I could not read any file.' },
        { text: 'no luck' },
      ],
      { policy: { deny: ['read'] } },
    );
    const childRead = events.find((e) => e.type === 'tool.end' && e.call.id === 'c1');
    expect(childRead).toMatchObject({ output: { isError: true } });
    expect(JSON.stringify(childRead)).not.toContain('SENTINEL');
    const report = events.find((e) => e.type === 'tool.end' && e.call.id === 'p1');
    expect(report?.type === 'tool.end' && report.output.content).toContain(
      'the explorer had no read-only tools',
    );
    expect(result.text).toBe('no luck');
  });

  it('refuses max_steps above 12 naming the limit, and runs no child', async () => {
    const { events } = await run([explore('Find the port', { max_steps: 13 }), { text: 'ok' }]);
    const answer = events.find((e) => e.type === 'tool.end' && e.call.id === 'p1');
    expect(answer).toMatchObject({ output: { isError: true } });
    expect(answer?.type === 'tool.end' && answer.output.content).toMatch(
      /max_steps may be at most 12/,
    );
    expect(events.filter((e) => e.type === 'run.start')).toHaveLength(1);
  });

  it('ends a child that never answers with stop_reason=max_steps_exhausted, a not-found report and the paths it checked', async () => {
    const { events } = await run([
      explore('Find the port', { max_steps: 2 }),
      read('config.ts', 'c1'),
      read('other.ts', 'c2'),
      { text: 'done' },
    ]);
    const answer = events.find((e) => e.type === 'tool.end' && e.call.id === 'p1');
    const report = answer?.type === 'tool.end' ? answer.output.content : '';
    expect(answer).toMatchObject({ output: { isError: false } });
    expect(report).toContain('stop_reason=max_steps_exhausted');
    expect(report).toContain('Not found');
    expect(report).toContain('read {"path":"config.ts"}');
    expect(report).toContain('read {"path":"other.ts"}');
    expect(report).toContain('tool=read');
  });

  it('gives two explorations in one run different child sessions, one after the other', async () => {
    const { events } = await run([
      {
        tool_calls: [
          { id: 'p1', name: 'explore', arguments: { task: 'first' } },
          { id: 'p2', name: 'explore', arguments: { task: 'second' } },
        ],
      },
      { text: 'first report' },
      { text: 'second report' },
      { text: 'both done' },
    ]);
    const children = events.filter((e) => e.type === 'run.start' && e.parent !== undefined);
    expect(children).toHaveLength(2);
    const keys = children.map((e) => (e.type === 'run.start' ? e.session.key : ''));
    expect(new Set(keys).size).toBe(2);
    // The second child starts only after the first one finished.
    const order = events
      .filter(
        (e) => (e.type === 'run.start' || e.type === 'run.finish') && e.runId !== events[0]?.runId,
      )
      .map((e) => e.type);
    expect(order).toEqual(['run.start', 'run.finish', 'run.start', 'run.finish']);
    const sessions = await readdir(join(stateDir, 'sessions'));
    expect(sessions.filter((name) => name.includes('-explore-'))).toHaveLength(2);
  });

  it('says it needs an agent run when called without one', async () => {
    const tool = exploreTool();
    const output = await tool.run(tool.parse({ task: 'x' }), {
      workdir,
      signal: new AbortController().signal,
      toolCallId: 't',
      visibleTools: ['explore'],
    });
    expect(output.isError).toBe(true);
    expect(output.content).toMatch(/explore needs a session/);
  });

  it('refuses a default step count outside 1-12 and tools that are not read-only', () => {
    expect(() => exploreTool({ maxSteps: 13 })).toThrow(/from 1 to 12/);
    const [write] = workspaceTools({ workdir, enabled: ['write'] });
    expect(() => exploreTool({ tools: write ? [write] : [] })).toThrow(
      /only be given read-only tools/,
    );
  });
});

describe('the explorer’s prompt', () => {
  const childSystem = async (options: Partial<AgentOptions>) => {
    const { provider } = await run(
      [explore('Find the port'), { text: 'PORT is in ports.ts' }, { text: 'done' }],
      options,
    );
    const child = provider.requests.find((r) =>
      r.messages.some((m) => m.role === 'user' && m.content.includes('Find the port')),
    );
    return (child?.messages ?? []).filter((m) => m.role === 'system').map((m) => m.content);
  };

  it.each([
    ['the built-in system prompt', {}, /^You are Tiny Claw, a coding agent/],
    ['the agent’s own systemPrompt', { systemPrompt: 'You are Nimbus.' }, /^You are Nimbus\.$/],
  ])('follows %s with the agent’s instructions and its own', async (_case, options, first) => {
    const system = await childSystem({ ...options, instructions: 'Answer in French.' });
    expect(system).toHaveLength(2);
    expect(system[0]).toMatch(first);
    expect(system[1]).toMatch(/^Answer in French\.\n\nYou are an Explorer subagent\./);
  });
});
