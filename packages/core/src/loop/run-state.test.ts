import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noteTool, runAndCapture } from '../agent/__fixtures__/agent-harness.js';
import { createAgent } from '../agent/create-agent.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';
import type { ToolMiddleware } from '../tool.js';
import { runStateSchema } from './run-state.js';

let workdir: string;
beforeEach(async () => {
  workdir = await mkdtemp(join(tmpdir(), 'tiny-claw-run-state-'));
});
afterEach(() => rm(workdir, { recursive: true, force: true }));

/** Pauses every call whose text is `pause`, as an approval middleware would. */
const pauseOn: ToolMiddleware = async (ctx, next) =>
  ctx.call.arguments.text === 'pause'
    ? {
        status: 'suspended',
        approvalId: 'ap_1',
        checkpointId: 'cp_1',
        output: { content: 'waiting for a person', isError: true },
      }
    : next(ctx);

describe('the run state', () => {
  it('survives a JSON round trip through its schema, paused batch and counts included', async () => {
    const provider = new ScriptedProvider({
      turns: [
        {
          tool_calls: [{ name: 'note', arguments: { text: 'one' } }],
          usage: { input_tokens: 5, output_tokens: 1 },
        },
        {
          text: 'now the risky part',
          tool_calls: [
            { name: 'note', arguments: { text: 'before' } },
            { name: 'note', arguments: { text: 'pause' } },
            { name: 'note', arguments: { text: 'after' } },
          ],
        },
      ],
    });
    const agent = createAgent({ provider, tools: [noteTool], middleware: [pauseOn], workdir });
    const { result, state } = await runAndCapture(agent, 'go', { session: 'paused' });
    expect(result).toMatchObject({
      stopReason: 'approval_required',
      approvalId: 'ap_1',
      checkpointId: 'cp_1',
    });

    const copy = runStateSchema.parse(JSON.parse(JSON.stringify(state)));
    expect(copy).toEqual(state);
    expect(copy).toMatchObject({
      runId: result.runId,
      step: 2,
      mode: 'act',
      usage: { inputTokens: 5 },
    });
    // The paused turn stays out of the history until all its calls are answered.
    expect(copy.messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'now the risky part',
    });
    expect(copy.pending?.calls.map((call) => call.arguments.text)).toEqual([
      'before',
      'pause',
      'after',
    ]);
    // The three calls are parallel-safe: the two that were not paused ran and are answered; the
    // paused one is the only call left without an answer.
    expect(copy.pending?.observations.map((m) => m.content)).toEqual([
      'noted: before',
      'noted: after',
    ]);
    const answered = new Set(copy.pending?.observations.map((m) => m.toolCallId));
    const open = copy.pending?.calls.filter((call) => !answered.has(call.id));
    expect(open?.map((call) => call.arguments.text)).toEqual(['pause']);
  });

  it('refuses a state that is not one: wrong version, unsafe shape, a pending batch without calls', () => {
    const bad = [
      {},
      { schemaVersion: 2 },
      { schemaVersion: 1, runId: '', session: {}, messages: 'x' },
    ];
    for (const value of bad) expect(runStateSchema.safeParse(value).success).toBe(false);
  });
});
