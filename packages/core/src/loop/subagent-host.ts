import { isAllowed } from '../agent/tool-policy.js';
import type { EventBus } from '../observe/event-bus.js';
import { countUsage } from '../observe/usage-totals.js';
import { isRunSession, noMemory } from '../session/run-session.js';
import type { SubagentHost, SubagentRequest } from '../tool.js';
import type { RunState } from './run-state.js';
import type { RunResult } from './run-types.js';
import { type RunRequest, type RunSetup, startRun } from './start-run.js';

/** What a calling run lends its child runs. */
export interface SubagentParent {
  setup: RunSetup;
  state: RunState;
  /** The calling run's bus: child events are re-emitted on it, so its listeners see them nested. */
  events: EventBus;
  requestedBy: string | undefined;
  origin: string | undefined;
}

/**
 * For each tool call of a run, the {@link SubagentHost} that starts child runs nested under it.
 * A child gets the calling run's provider, store, tracer and tool middlewares (so the policy and
 * approvals apply to it as well), only the tools it asks for among those the calling run may use
 * on this step, and the call's cancellation signal. Its events go to the calling run's bus and
 * nowhere else, each marked with the calling run's id as `parentRunId`: the trace puts them under
 * the call, usage lines and totals count them once, and a consumer of the calling run's stream
 * tells them apart by that field (a child's `run.finish` is not the calling run's).
 *
 * @example
 * executeBatch(calls, { ...options, subagents: subagentHosts(parent, signal) });
 */
export function subagentHosts(
  parent: SubagentParent,
  signal: AbortSignal,
): (toolCallId: string) => SubagentHost {
  return (toolCallId) => {
    const { setup, state } = parent;
    return {
      // Looked up only by a tool that starts a child: every call gets a host, few use it.
      get tools() {
        return setup.registry.available(state.tools);
      },
      logger: setup.logger,
      provider: {
        name: setup.provider.name,
        ...(setup.provider.model === undefined ? {} : { model: setup.provider.model }),
      },
      allows: (toolName) => isAllowed(toolName, setup.policy),
      run: (request) => runChild(parent, request, { toolCallId, signal, available: state.tools }),
      // A run that remembers nothing lends its children no memory either.
      memory: (session) => (isRunSession(state.session) ? noMemory : setup.store.memory(session)),
    };
  };
}

async function runChild(
  parent: SubagentParent,
  request: SubagentRequest,
  call: { toolCallId: string; signal: AbortSignal; available: readonly string[] },
): Promise<RunResult> {
  const { setup, state, events } = parent;
  const allowed = new Set(call.available);
  const own = (request.extraTools ?? []).filter(
    (tool) => !allowed.has(tool.name) && isAllowed(tool.name, setup.policy),
  );
  for (const tool of own) allowed.add(tool.name);
  const tools = [...new Set(request.tools)].filter((name) => allowed.has(name)).sort();
  const registry = own.length > 0 ? setup.registry.derive(own) : setup.registry;
  const instructions = [setup.instructions, request.instructions]
    .filter((text): text is string => text !== undefined && text.trim() !== '')
    .join('\n\n');
  const child: RunSetup = { ...setup, registry, tools, instructions };
  const childRequest: RunRequest = {
    prompt: request.prompt,
    session: request.session,
    mode: 'act',
    maxSteps: request.maxSteps,
    signal: call.signal,
    listeners: [
      // Marked as nested: a grandchild's events keep the id of the run that started them.
      (event) => events.emit({ ...event, parentRunId: event.parentRunId ?? state.runId }),
      ...(request.onEvent ? [request.onEvent] : []),
    ],
    caller: 'subagent',
    parent: { runId: state.runId, toolCallId: call.toolCallId },
    ...(isRunSession(state.session) ? { remembers: false } : {}),
    ...(parent.requestedBy === undefined ? {} : { requestedBy: parent.requestedBy }),
    ...(parent.origin === undefined ? {} : { origin: parent.origin }),
  };
  const result = await startRun(child, childRequest);
  // The child's tokens count toward the run that started it; a child cost left out because one
  // of its calls had no price leaves the calling run's cost unknown too.
  countUsage(state, result.usage ?? undefined, result.costUsd, {
    unpriced: result.usage !== null && result.costUsd === undefined,
  });
  return result;
}
