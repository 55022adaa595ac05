import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noteTool } from '../agent/__fixtures__/agent-harness.js';
import { createAgent } from '../agent/create-agent.js';
import { ProviderError } from '../errors.js';
import type { LLMProvider, LLMResponse } from '../provider.js';
import { createMemoryStore } from '../store/memory-state-store.js';
import type { StateStore } from '../store/state-store.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';
import type { Logger } from './logger.js';
import { type UsageEvent, type UsageRecorder, usageEventSchema } from './usage.js';

let workdir: string;
beforeEach(async () => {
  workdir = await mkdtemp(join(tmpdir(), 'tiny-claw-usage-lines-'));
});
afterEach(() => rm(workdir, { recursive: true, force: true }));

/** A memory store whose usage lines land in `events`. */
function recordingStore(recorder: UsageRecorder): StateStore {
  return { ...createMemoryStore(), usage: recorder };
}

function recorder() {
  const events: UsageEvent[] = [];
  return { events, record: (event: UsageEvent) => void events.push(event) };
}

const failing = (error: unknown): LLMProvider => ({
  name: 'fake',
  complete: async () => {
    throw error;
  },
});

describe('usage lines', () => {
  it('records one line per model call with counts, cost and the run scope', async () => {
    const usage = recorder();
    const provider = new ScriptedProvider({
      turns: [
        {
          tool_calls: [{ name: 'note', arguments: { text: 'a' } }],
          usage: { input_tokens: 829, output_tokens: 119 },
        },
        { text: 'done', usage: { input_tokens: 900, output_tokens: 10 } },
      ],
    });
    const agent = createAgent({
      provider,
      tools: [noteTool],
      store: recordingStore(usage),
      workdir,
      prices: { scripted: { inputPerMTok: 1.25, outputPerMTok: 10 } },
    });
    const before = Date.now();
    const result = await agent.run('go', { session: 'usage' });
    expect(usage.events).toHaveLength(2);
    const [first, second] = usage.events.map((event) => usageEventSchema.parse(event));
    expect(first).toMatchObject({
      schemaVersion: 1,
      sessionKey: result.sessionKey,
      runId: result.runId,
      mode: 'act',
      phase: 'act',
      step: 1,
      caller: 'main_loop',
      provider: 'scripted',
      model: 'scripted',
      usage: { inputTokens: 829, outputTokens: 119, totalTokens: 948 },
      costUsd: 0.00222625,
      toolCalls: 1,
      textChars: 0,
      errorType: null,
    });
    expect(second).toMatchObject({ step: 2, toolCalls: 0, textChars: 4 });
    expect(Date.parse(first?.timestamp ?? '')).toBeGreaterThanOrEqual(before - 1);
  });

  it('records a failed call with nulls and its error type: a ProviderError by kind, odd errors as unknown', async () => {
    const usage = recorder();
    const store = recordingStore(usage);
    const run = (error: unknown) =>
      createAgent({ provider: failing(error), store, workdir }).run('go');
    await run(new ProviderError('slow down', { kind: 'rate_limit', status: 429 }));
    await run(new TypeError('fetch failed'));
    await run('the prompt itself');
    await run(Object.assign(new Error('x'), { name: 'secret prompt text here' }));
    expect(usage.events.map((event) => event.errorType)).toEqual([
      'rate_limit',
      'TypeError',
      'unknown',
      'unknown',
    ]);
    expect(usage.events[0]).toMatchObject({
      model: null,
      usage: null,
      costUsd: null,
      toolCalls: null,
      textChars: null,
    });
  });

  it('records both attempts of a context-length retry', async () => {
    const usage = recorder();
    let calls = 0;
    const provider: LLMProvider = {
      name: 'picky',
      complete: async (): Promise<LLMResponse> => {
        calls += 1;
        if (calls === 1) throw new ProviderError('too long', { kind: 'context_length' });
        return { message: { role: 'assistant', content: 'ok' }, provider: 'picky' };
      },
    };
    await createAgent({ provider, store: recordingStore(usage), workdir }).run('go');
    expect(usage.events.map((event) => [event.step, event.errorType])).toEqual([
      [1, 'context_length'],
      [1, null],
    ]);
  });

  it('keeps only the six usage counts a provider reports', async () => {
    const usage = recorder();
    const provider: LLMProvider = {
      name: 'extra',
      complete: async () => ({
        message: { role: 'assistant', content: 'ok' },
        provider: 'extra',
        usage: {
          inputTokens: 1,
          outputTokens: 2,
          totalTokens: 3,
          reasoningTokens: 1,
          secret: 'x',
        } as never,
      }),
    };
    await createAgent({ provider, store: recordingStore(usage), workdir }).run('go');
    expect(usage.events[0]?.usage).toEqual({
      inputTokens: 1,
      outputTokens: 2,
      totalTokens: 3,
      reasoningTokens: 1,
    });
  });

  it('logs a recorder that throws and still finishes the run', async () => {
    const warnings: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} };
    const store = recordingStore({
      record: () => {
        throw new Error('disk full');
      },
    });
    const provider = new ScriptedProvider({ turns: [{ text: 'ok' }] });
    const result = await createAgent({ provider, store, workdir, logger }).run('go');
    expect(result.stopReason).toBe('final');
    expect(warnings.some((w) => w.includes('disk full'))).toBe(true);
  });
});
