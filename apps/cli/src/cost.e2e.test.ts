import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createTempWorkspace,
  type FakeLlmServer,
  runCli,
  startFakeLlmServer,
  type TempWorkspace,
} from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The real CLI and the real OpenAI provider, priced from its own table (and TINY_CLAW_PRICES),
// against a loopback server that reports usage like the real API.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

let ws: TempWorkspace;
let server: FakeLlmServer;

beforeEach(async () => {
  ws = await createTempWorkspace({});
  server = await startFakeLlmServer();
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

function cli(args: string[], env: Record<string, string>) {
  return runCli({
    bin,
    args,
    cwd: ws.dir,
    env: {
      TINY_CLAW_STATE_DIR: ws.path('.state'),
      TINY_CLAW_WORKDIR: ws.dir,
      TINY_CLAW_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test-not-a-real-key-000',
      OPENAI_BASE_URL: server.openaiBaseUrl,
      ...env,
    },
    timeoutMs: 60_000,
  });
}

/** One answered turn of 1000 input and 100 output tokens, run and then shown with `trace show last`. */
async function runOnce(env: Record<string, string>) {
  server.enqueue({ kind: 'turn', text: 'priced answer', usage: { input: 1_000, output: 100 } });
  const run = await cli(['run', 'what does it cost?'], env);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toBe('priced answer\n');
  const trace = await cli(['trace', 'show', 'last'], env);
  expect(trace.code, trace.stderr).toBe(0);
  return { summary: run.stderr.trimEnd().split('\n').at(-1) ?? '', trace: trace.stdout };
}

describe('the estimated cost of a run', () => {
  it('is on the summary line and in trace show when the model has a built-in price', async () => {
    // gpt-4.1: $2 input and $8 output per 1M tokens: 1000 × 2 + 100 × 8 = 2800 millionths.
    const { summary, trace } = await runOnce({ TINY_CLAW_MODEL: 'gpt-4.1' });
    expect(summary).toMatch(
      /^tiny-claw · stop=final · .* · tokens=1000 in \/ 100 out · cost≈\$0\.0028 · trace=/,
    );
    expect(trace).toMatch(/^agent\.run \S+ {2}ok {2}\S+ {2}cost≈\$0\.0028$/m);
    expect(trace).toMatch(
      /llm\.call llm\.openai {2}ok {2}\S+ {2}gpt-4\.1 {2}tokens 1000 in \/ 100 out {2}cost≈\$0\.0028$/m,
    );
  });

  it('is priced from TINY_CLAW_PRICES for a model the provider has no price for', async () => {
    const prices = ws.path('prices.json');
    await writeFile(
      prices,
      JSON.stringify({ models: { 'llama-3.3-70b': { input: 0.5, output: 1 } } }),
    );
    const { summary, trace } = await runOnce({
      TINY_CLAW_MODEL: 'llama-3.3-70b',
      TINY_CLAW_PRICES: prices,
    });
    expect(summary).toContain(' · tokens=1000 in / 100 out · cost≈$0.0006 · ');
    expect(trace).toMatch(/^agent\.run .* {2}cost≈\$0\.0006$/m);
  });

  it('reads cost=unknown on the summary line and in trace show when the model has no price', async () => {
    const { summary, trace } = await runOnce({ TINY_CLAW_MODEL: 'llama-3.3-70b' });
    expect(summary).toContain(' · tokens=1000 in / 100 out · cost=unknown · trace=');
    expect(summary).not.toContain('cost≈');
    expect(trace).toMatch(/^agent\.run .* {2}cost=unknown$/m);
    expect(trace).toMatch(/tokens 1000 in \/ 100 out {2}cost=unknown$/m);
  });

  it('reads cost=unknown for the echo provider, whose answers report no tokens to price', async () => {
    const run = await cli(['run', 'hello'], { TINY_CLAW_PROVIDER: 'echo' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/ · session=\S+ · cost=unknown · trace=/);
  });

  it('leaves run --json as the RunResult: costUsd when priced, absent when not', async () => {
    server.enqueue(
      { kind: 'turn', text: 'a', usage: { input: 1_000, output: 100 } },
      { kind: 'turn', text: 'b', usage: { input: 1_000, output: 100 } },
    );
    const priced = await cli(['run', 'x', '--json'], { TINY_CLAW_MODEL: 'gpt-4.1' });
    expect(JSON.parse(priced.stdout).costUsd).toBeCloseTo(0.0028, 12);
    const unpriced = await cli(['run', 'x', '--json'], { TINY_CLAW_MODEL: 'llama-3.3-70b' });
    expect(JSON.parse(unpriced.stdout)).not.toHaveProperty('costUsd');
  });
});
