import { readFile } from 'node:fs/promises';
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

// The real CLI, the real SDK clients, and a loopback server speaking the real wire formats.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

let ws: TempWorkspace;
let server: FakeLlmServer;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'notes.txt': 'the secret word is pineapple\n' });
  server = await startFakeLlmServer();
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

const providers = {
  openai: () => ({
    TINY_CLAW_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-test-not-a-real-key-000',
    OPENAI_BASE_URL: server.openaiBaseUrl,
  }),
  claude: () => ({
    TINY_CLAW_PROVIDER: 'claude',
    ANTHROPIC_API_KEY: 'sk-ant-test-not-a-real-key-000',
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  }),
};

function cli(args: string[], env: Record<string, string>) {
  return runCli({
    bin,
    args,
    cwd: ws.dir,
    env: { TINY_CLAW_STATE_DIR: ws.path('.state'), TINY_CLAW_WORKDIR: ws.dir, ...env },
    timeoutMs: 60_000,
  });
}

describe.each(Object.keys(providers) as Array<keyof typeof providers>)(
  'tiny-claw run with %s',
  (name) => {
    it('completes a multi-turn run whose tool calls are answered, streaming or not', async () => {
      for (const stream of ['on', 'off']) {
        server.enqueue(
          {
            kind: 'turn',
            text: 'Let me look.',
            toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }],
            usage: { input: 120, output: 12 },
          },
          { kind: 'turn', text: 'The word is pineapple.', usage: { input: 180, output: 9 } },
        );
        const before = server.requests.length;
        const result = await cli(['run', 'what is the secret word?', '--json'], {
          ...providers[name](),
          TINY_CLAW_STREAM: stream,
        });
        expect(result.code, result.stderr).toBe(0);
        const json = JSON.parse(result.stdout);
        expect(json).toMatchObject({
          stopReason: 'final',
          steps: 2,
          text: 'The word is pineapple.',
          provider: name,
        });
        expect(json.usage).toMatchObject({ outputTokens: 21 });
        const second = JSON.stringify(server.requests[before + 1]?.body);
        expect(second).toContain('the secret word is pineapple');
      }
    });

    it('records one content-free usage line per model call', async () => {
      server.enqueue(
        {
          kind: 'turn',
          toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }],
          usage: { input: 50, output: 5 },
        },
        { kind: 'turn', text: 'DISTINCTIVE-ANSWER-TEXT', usage: { input: 70, output: 6 } },
      );
      const result = await cli(['run', 'DISTINCTIVE-PROMPT-TEXT'], providers[name]());
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('DISTINCTIVE-ANSWER-TEXT\n');
      const usage = await readFile(ws.path('.state/usage/model-calls.jsonl'), 'utf8');
      const lines = usage
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatchObject({
        provider: name,
        caller: 'main_loop',
        step: 1,
        usage: { inputTokens: 50, outputTokens: 5 },
      });
      expect(usage).not.toContain('DISTINCTIVE-PROMPT-TEXT');
      expect(usage).not.toContain('DISTINCTIVE-ANSWER-TEXT');
      expect(usage).not.toContain('pineapple');
      expect(result.stderr).toMatch(/tokens=120 in \/ 11 out/);
    });

    it('retries a 429 with retry-after and completes the run', async () => {
      server.enqueue(
        { kind: 'error', status: 429, headers: { 'retry-after': '1' } },
        { kind: 'turn', text: 'after the wait' },
      );
      const result = await cli(['run', 'x'], providers[name]());
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('after the wait\n');
      expect(server.requests).toHaveLength(2);
    });

    it('ends with exit 70 and a one-line error after three 500s, never printing the key', async () => {
      server.enqueue(
        { kind: 'error', status: 500, headers: { 'retry-after-ms': '10' } },
        { kind: 'error', status: 500, headers: { 'retry-after-ms': '10' } },
        { kind: 'error', status: 500, headers: { 'retry-after-ms': '10' } },
      );
      const result = await cli(['run', 'x'], providers[name]());
      expect(result.code).toBe(70);
      expect(result.stdout).toBe('');
      const errorLines = result.stderr.split('\n').filter((line) => line.startsWith('tiny-claw: '));
      expect(errorLines).toHaveLength(1);
      expect(errorLines[0]).toContain('500');
      expect(result.stderr).not.toContain('not-a-real-key');
    });

    it('says the key was rejected on 401 without printing it (exit 70)', async () => {
      server.enqueue({
        kind: 'error',
        status: 401,
        message: 'invalid api key',
        errorType: 'authentication_error',
      });
      const result = await cli(['run', 'x'], providers[name]());
      expect(result.code).toBe(70);
      expect(result.stderr).not.toContain('not-a-real-key');
      expect(result.stderr).toMatch(/401/);
    });

    it('never executes a tool call from a stream that was cut before its end', async () => {
      server.enqueue(
        { kind: 'cut', toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] },
        { kind: 'cut', toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] },
        { kind: 'turn', text: 'recovered' },
      );
      const result = await cli(['run', 'x'], providers[name]());
      expect(result.stderr).not.toContain('→ read');
      if (result.code === 0) expect(result.stdout).toBe('recovered\n');
      else expect(result.code).toBe(70);
    });
  },
);
