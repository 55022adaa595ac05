import { type LLMRequest, msg } from '@tiny-claw/core';
import { type FakeLlmServer, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeProvider, type ClaudeProviderOptions, claudePriceTable } from './index.js';

// Every response with usage is priced from the package's own table, merged with `prices`.

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

const provider = (options: Partial<ClaudeProviderOptions> = {}) =>
  new ClaudeProvider({
    apiKey: 'sk-ant-test-key-for-pricing',
    baseURL: server.anthropicBaseUrl,
    model: 'claude-sonnet-4-5',
    maxTokens: 1024,
    ...options,
  });

const request: LLMRequest = { messages: [msg.user('hi')], tools: [], toolChoice: 'auto' };
// Anthropic counts input apart from cache reads and writes: 1,000 + 300 + 200 prompt tokens.
const usage = { input: 1_000, output: 100, cacheRead: 300, cacheWrite: 200 };

describe('costUsd on responses', () => {
  it.each([
    ['JSON', false],
    ['SSE', true],
  ])('prices a %s turn with cache reads and writes at their own rates', async (_label, stream) => {
    server.enqueue({ kind: 'turn', text: 'ok', usage });
    const response = await provider({ stream }).complete(request);
    // claude-sonnet-4-5: $3 input, $0.30 cache read, $3.75 cache write, $15 output per 1M tokens.
    expect(response.costUsd).toBe((1_000 * 3 + 300 * 0.3 + 200 * 3.75 + 100 * 15) / 1e6);
  });

  it('prices a model named without its snapshot date as the dated entry', async () => {
    server.enqueue({ kind: 'turn', usage: { input: 1_000, output: 100 } });
    const response = await provider({ model: 'claude-sonnet-4' }).complete(request);
    expect(response.costUsd).toBe((1_000 * 3 + 100 * 15) / 1e6);
  });

  it('leaves a model it has no price for unpriced', async () => {
    server.enqueue({ kind: 'turn', usage });
    const response = await provider({ model: 'claude-next' }).complete(request);
    expect(response.usage).toBeDefined();
    expect(response).not.toHaveProperty('costUsd');
  });

  it('takes the prices option over the package table: new models added, listed ones replaced whole', async () => {
    server.enqueue({ kind: 'turn', usage }, { kind: 'turn', usage });
    const prices = {
      'claude-next': { inputPerMTok: 1, outputPerMTok: 5 },
      'claude-sonnet-4-5': { inputPerMTok: 2, outputPerMTok: 10 },
    };
    const added = await provider({ model: 'claude-next', prices }).complete(request);
    // Without cache rates, cache reads and writes cost the input rate.
    expect(added.costUsd).toBe((1_500 * 1 + 100 * 5) / 1e6);
    const replaced = await provider({ prices }).complete(request);
    expect(replaced.costUsd).toBe((1_500 * 2 + 100 * 10) / 1e6);
    expect(claudePriceTable['claude-sonnet-4-5']?.inputPerMTok).toBe(3);
  });
});
