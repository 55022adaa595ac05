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

// The real CLI and OpenAI SDK client against a loopback model that records what it is sent: what
// the model reads of a command whose output is random bytes.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

let ws: TempWorkspace;
let server: FakeLlmServer;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'notes.txt': 'plain text\n' });
  server = await startFakeLlmServer();
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

type WireMessage = { role: string; content?: string | null };
const toolResults = (index: number): string[] => {
  const body = server.requests[index]?.body as { messages?: WireMessage[] } | undefined;
  return (body?.messages ?? [])
    .filter((message) => message.role === 'tool')
    .map((message) => message.content ?? '');
};

async function runBash(command: string) {
  server.enqueue(
    { kind: 'turn', toolCalls: [{ name: 'bash', arguments: { command } }] },
    { kind: 'turn', text: 'done' },
  );
  const result = await runCli({
    bin,
    args: ['run', 'look at the output', '--json'],
    cwd: ws.dir,
    env: {
      TINY_CLAW_STATE_DIR: ws.path('.state'),
      TINY_CLAW_WORKDIR: ws.dir,
      TINY_CLAW_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test-not-a-real-key-000',
      OPENAI_BASE_URL: server.openaiBaseUrl,
      TINY_CLAW_ENABLED_TOOLS: 'bash',
      // About what the model reads, not approval: reading /dev/urandom must simply run.
      TINY_CLAW_APPROVAL_PROVIDER: 'off',
    },
    timeoutMs: 60_000,
  });
  expect(result.code, result.stderr).toBe(0);
  const [observation] = toolResults(1);
  return observation ?? '';
}

describe('binary output of a bash command', () => {
  it.each([
    ['random bytes on stdout', 'head -c 4096 /dev/urandom', 'stdout', 4096],
    [
      'random bytes without NULs',
      "head -c 4096 /dev/urandom | tr -d '\\000' | head -c 3000",
      'stdout',
      3000,
    ],
    ['random bytes on stderr', 'head -c 2048 /dev/urandom >&2', 'stderr', 2048],
  ])(
    '%s reach the model as a note saying the output is binary, never as U+FFFD',
    async (_what, command, stream, bytes) => {
      const observation = await runBash(command);
      expect(observation).toMatch(
        new RegExp(
          `${stream}:\\n\\[binary output: ${bytes} bytes, not shown; starts with( [0-9a-f]{2}){16} …\\]`,
        ),
      );
      expect(observation).not.toContain('\uFFFD');
    },
  );

  it('keeps a text stream next to a binary one as it is', async () => {
    const observation = await runBash('cat notes.txt; head -c 1024 /dev/urandom >&2');
    expect(observation).toContain('stdout:\nplain text');
    expect(observation).toMatch(/stderr:\n\[binary output: 1024 bytes, not shown;/);
    expect(observation).not.toContain('\uFFFD');
  });
});
