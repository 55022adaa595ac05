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

// The real CLI and the real OpenAI SDK client against a loopback server that records every request.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

const FILES = [1, 2, 3, 4];
// 2,000 lines of 40 characters: 80 KB, so each read returns its 50 KiB cap and a paging footer.
const fileText = (file: number) =>
  Array.from({ length: 2000 }, (_, i) =>
    `f${file} line ${String(i + 1).padStart(4, '0')} `.padEnd(39, '.'),
  ).join('\n');

let ws: TempWorkspace;
let server: FakeLlmServer;

beforeEach(async () => {
  ws = await createTempWorkspace(
    Object.fromEntries(FILES.map((file) => [`file${file}.txt`, `${fileText(file)}\n`])),
  );
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

describe('compaction keeps the latest tool batch whole and leaves no stale paging hint', () => {
  it('four successive 50 KB reads: each request carries the newest read whole and every cut result without its continue hint', async () => {
    server.enqueue(
      ...FILES.map((file) => ({
        kind: 'turn' as const,
        toolCalls: [{ name: 'read', arguments: { path: `file${file}.txt` } }],
      })),
      { kind: 'turn', text: 'read them all' },
    );
    const result = await runCli({
      bin,
      args: ['run', 'read the four files one after another', '--json'],
      cwd: ws.dir,
      env: {
        TINY_CLAW_STATE_DIR: ws.path('.state'),
        TINY_CLAW_WORKDIR: ws.dir,
        TINY_CLAW_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-test-not-a-real-key-000',
        OPENAI_BASE_URL: server.openaiBaseUrl,
        TINY_CLAW_ENABLED_TOOLS: 'read',
      },
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ stopReason: 'final', steps: 5 });
    expect(server.requests).toHaveLength(5);

    // The 4th request: three read results, over the 120,000-character budget.
    const fourth = toolResults(3);
    expect(fourth).toHaveLength(3);
    const newest = fourth[2] as string;
    // The 3rd read, which the model has not seen yet, goes out whole: every line it returned and
    // its own paging footer, which is still true.
    expect(newest.length).toBeGreaterThan(45_000);
    expect(newest).toContain('f3 line 0600');
    expect(newest).toMatch(/continue with offset=\d+\]$/);
    expect(newest).not.toContain('Tiny Claw shortened');
    for (const cut of fourth.slice(0, 2)) {
      expect(cut).toContain('Tiny Claw shortened');
      expect(cut).toContain('re-run the same call');
      expect(cut).not.toMatch(/offset=\d/);
    }

    // The 5th request: now the 4th read is the unseen one, and the 3rd is cut honestly.
    const fifth = toolResults(4);
    expect(fifth[3]).toContain('f4 line 0600');
    expect(fifth[3]).toMatch(/continue with offset=\d+\]$/);
    expect(fifth[2]).toContain('Tiny Claw shortened');
    expect(fifth[2]).not.toMatch(/offset=\d/);
  });
});
