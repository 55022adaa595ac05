import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAgent,
  type LLMProvider,
  ProviderError,
  StateError,
  type UsageEvent,
  usageEventSchema,
} from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore } from './file-store.js';
import { FileUsageRecorder, usageFilePath } from './file-usage-recorder.js';

let stateDir: string;

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-usage-'));
});

afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

const event = (overrides: Partial<UsageEvent> = {}): UsageEvent => ({
  schemaVersion: 1,
  timestamp: '2026-03-01T12:00:00.000Z',
  sessionKey: 'cli-000000000000-default',
  runId: 'run-1',
  mode: 'act',
  phase: 'act',
  step: 1,
  caller: 'main_loop',
  provider: 'openai',
  model: 'gpt-5.4',
  usage: { inputTokens: 829, outputTokens: 119, totalTokens: 948 },
  costUsd: 0.00222625,
  latencyMs: 1200,
  toolCalls: 0,
  textChars: 42,
  errorType: null,
  ...overrides,
});

const fileLines = async (path: string) => {
  const lines = (await readFile(path, 'utf8')).split('\n');
  expect(lines.pop()).toBe('');
  return lines;
};

describe('FileUsageRecorder', () => {
  it('appends each event as one schema-valid line to <stateDir>/usage/model-calls.jsonl', async () => {
    const recorder = new FileUsageRecorder(stateDir);
    expect(recorder.path).toBe(join(stateDir, 'usage', 'model-calls.jsonl'));
    expect(usageFilePath(stateDir)).toBe(recorder.path);
    await recorder.record(event({ step: 1 }));
    await recorder.record(event({ step: 2, usage: null, costUsd: null, errorType: 'rate_limit' }));
    const lines = await fileLines(recorder.path);
    expect(lines.map((line) => usageEventSchema.parse(JSON.parse(line)))).toEqual([
      event({ step: 1 }),
      event({ step: 2, usage: null, costUsd: null, errorType: 'rate_limit' }),
    ]);
  });

  it('creates the usage directory 0700 and the file 0600', async () => {
    const recorder = new FileUsageRecorder(stateDir);
    await recorder.record(event());
    expect((await stat(join(stateDir, 'usage'))).mode & 0o777).toBe(0o700);
    expect((await stat(recorder.path)).mode & 0o777).toBe(0o600);
  });

  it('drops fields outside the schema, so smuggled text never reaches the file', async () => {
    const recorder = new FileUsageRecorder(stateDir);
    const smuggled = { ...event(), prompt: 'ZEBRA-PROMPT-7731', answer: 'QUOKKA-ANSWER-1840' };
    await recorder.record(smuggled);
    const text = await readFile(recorder.path, 'utf8');
    expect(text).not.toContain('ZEBRA-PROMPT-7731');
    expect(text).not.toContain('QUOKKA-ANSWER-1840');
  });

  it('refuses an invalid event with a StateError naming the field, and writes nothing', async () => {
    const recorder = new FileUsageRecorder(stateDir);
    const error = await Promise.resolve(recorder.record(event({ latencyMs: -5 }))).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StateError);
    expect((error as Error).message).toContain('latencyMs');
    await expect(stat(recorder.path)).rejects.toThrow(/ENOENT/);
  });

  it('concurrent records from two recorders on one state dir produce whole lines', async () => {
    const a = new FileUsageRecorder(stateDir);
    const b = new FileUsageRecorder(stateDir);
    await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).record(event({ step: i }))),
    );
    const steps = (await fileLines(a.path)).map(
      (line) => usageEventSchema.parse(JSON.parse(line)).step,
    );
    expect(steps).toHaveLength(60);
    expect(new Set(steps).size).toBe(60);
  });

  it('repairs a truncated last line left by a crash before appending', async () => {
    const recorder = new FileUsageRecorder(stateDir);
    await mkdir(join(stateDir, 'usage'), { recursive: true });
    const whole = JSON.stringify(event({ step: 1 }));
    await writeFile(recorder.path, `${whole}\n${whole.slice(0, 40)}`);
    await recorder.record(event({ step: 3 }));
    const lines = await fileLines(recorder.path);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(whole.slice(0, 40));
    expect(usageEventSchema.parse(JSON.parse(lines[2] as string)).step).toBe(3);
  });
});

describe('the usage file of a run', () => {
  const failing = (error: unknown): LLMProvider => ({
    name: 'fake',
    complete: async () => {
      throw error;
    },
  });

  it('never holds the prompt or the answer text', async () => {
    const workdir = join(stateDir, 'work');
    await mkdir(workdir);
    const prompt = 'PROMPT-PLATYPUS-90210 please';
    const store = createFileStore(join(stateDir, 'state'));
    const ok = new ScriptedProvider({ turns: [{ text: 'ANSWER-AXOLOTL-31337 done' }] });
    await createAgent({ provider: ok, store, workdir }).run(prompt);
    const bad = failing(new ProviderError(`rejected: ${prompt}`, { kind: 'bad_request' }));
    await createAgent({ provider: bad, store, workdir }).run(prompt);
    const text = await readFile(usageFilePath(store.dir), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(2);
    for (const secret of ['PLATYPUS', 'AXOLOTL', 'rejected']) expect(text).not.toContain(secret);
  });
});
