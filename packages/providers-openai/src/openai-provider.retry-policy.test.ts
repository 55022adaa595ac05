import { msg } from '@tiny-claw/core';
import { type FakeLlmServer, type FakeStep, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OpenAIProvider } from './index.js';

// The retry policy every tiny-claw provider shares. The Claude provider runs the same table
// against the same fake server and must count the same attempts with the same outcome.

let server: FakeLlmServer;
let attempts = 0;
beforeEach(async () => {
  server = await startFakeLlmServer();
  attempts = 0;
});
afterEach(async () => {
  vi.useRealTimers();
  await server.close();
});

const provider = (stream: boolean) =>
  new OpenAIProvider({
    apiKey: 'sk-test-key',
    baseURL: server.openaiBaseUrl,
    model: 'gpt-test',
    stream,
    fetch: (input, init) => {
      attempts += 1;
      return fetch(input, init);
    },
  });

const quick = { 'retry-after-ms': '5' };
const ok: FakeStep = { kind: 'turn', text: 'done' };

const table: Array<[string, FakeStep[], number, string]> = [
  [
    '429 with retry-after, then success',
    [{ kind: 'error', status: 429, headers: quick }, ok],
    2,
    'done',
  ],
  ['500, then success', [{ kind: 'error', status: 500, headers: quick }, ok], 2, 'done'],
  ['529 overloaded, then success', [{ kind: 'error', status: 529, headers: quick }, ok], 2, 'done'],
  ['a connection cut before any byte, then success', [{ kind: 'cut' }, ok], 2, 'done'],
  ['400, not retried', [{ kind: 'error', status: 400 }, ok], 1, 'bad_request'],
  [
    '500 three times: gives up after 2 retries',
    Array(3).fill({ kind: 'error', status: 500, headers: quick }),
    3,
    'server',
  ],
  [
    '429 three times: gives up after 2 retries',
    Array(3).fill({ kind: 'error', status: 429, headers: quick }),
    3,
    'rate_limit',
  ],
];

describe.each([true, false])('the shared retry policy (stream %s)', (stream) => {
  it.each(table)('%s: %i attempts, outcome %s', async (_case, steps, expected, outcome) => {
    server.enqueue(...steps);
    const result = await provider(stream)
      .complete({ messages: [msg.user('hi')], tools: [], toolChoice: 'auto' })
      .then(
        (response) => response.message.content,
        (error: { kind?: string }) => error.kind,
      );
    expect(result).toBe(outcome);
    expect(attempts).toBe(expected);
  });

  it('an abort during the wait before a retry ends the call at once with the abort reason', async () => {
    // Fake time never moves here, so a wait that ignored the abort would never end.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '5' } }, ok);
    const controller = new AbortController();
    const call = provider(stream).complete(
      { messages: [msg.user('hi')], tools: [], toolChoice: 'auto' },
      { signal: controller.signal },
    );
    await server.received(1);
    controller.abort('user stop');
    await expect(call).rejects.toBe('user stop');
    expect(attempts).toBe(1);
  });
});
