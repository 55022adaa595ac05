import { z } from 'zod';
import type { RunState } from '../../loop/run-state.js';
import type { RunResult } from '../../loop/run-types.js';
import type { Message } from '../../messages.js';
import type { RunEvent } from '../../observe/run-events.js';
import { defineTool, type ToolFailure } from '../../tool.js';
import type { Agent, AgentRunOptions } from '../agent.js';

/** A parallel-safe tool that answers `noted: <text>`. */
export const noteTool = defineTool({
  name: 'note',
  description: 'returns the note',
  parallelSafe: true,
  parameters: z.object({ text: z.string() }),
  run: ({ text }) => `noted: ${text}`,
});

/** A tool that always fails without saying why in a typed way. */
export const failTool = defineTool({
  name: 'fail',
  description: 'always fails',
  parameters: z.object({}),
  run: () => ({ content: 'exit code 1\nstack…', isError: true }),
});

/** Run `agent` and keep every event and the final state. */
export async function runAndCapture(
  agent: Agent,
  prompt: string,
  options: AgentRunOptions = {},
): Promise<{ result: RunResult; events: RunEvent[]; state: Readonly<RunState> }> {
  const events: RunEvent[] = [];
  const result = await agent.run(prompt, {
    ...options,
    onEvent: (event) => {
      events.push(event);
      return options.onEvent?.(event);
    },
  });
  const finish = events.find((event) => event.type === 'run.finish' && event.runId === result.runId);
  if (finish?.type !== 'run.finish') throw new Error('the run did not announce run.finish');
  return { result, events, state: finish.state };
}

/** How each ended call failed, as the model's observation describes it (watchers see the same). */
export function endedFailures(events: readonly RunEvent[]): (ToolFailure | undefined)[] {
  return events.flatMap((event) => (event.type === 'tool.end' ? [event.observation.failure] : []));
}

/** Every assistant tool call must be answered by exactly one tool message. */
export function unansweredCalls(messages: readonly Message[]): string[] {
  const callIds = messages.flatMap((m) => (m.toolCalls ?? []).map((c) => c.id));
  const resultIds = messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId ?? '');
  const answered = new Map<string, number>();
  for (const id of resultIds) answered.set(id, (answered.get(id) ?? 0) + 1);
  const problems = callIds.filter((id) => answered.get(id) !== 1);
  const stray = resultIds.filter((id) => !callIds.includes(id));
  return [...problems, ...stray];
}

/** A promise with its resolve exposed, to hold a tool or provider until the test says so. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
