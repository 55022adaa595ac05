import { type LLMRequest, msg } from '@tiny-claw/core';
import { type FakeLlmServer, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIProvider, type OpenAIProviderOptions, openaiPriceTable } from './index.js';

// Every response with usage is priced from the package's own table, merged with `prices`.

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

const provider = (options: Partial<OpenAIProviderOptions> = {}) =>
  new OpenAIProvider({ apiKey: 'k', baseURL: server.openaiBaseUrl, model: 'gpt-4.1', ...options });

const request: LLMRequest = { messages: [msg.user('hi')], tools: [], toolChoice: 'auto' };
// 800 uncached input tokens, 200 cached, 100 output.
const usage = { input: 1_000, output: 100, cacheRead: 200 };

describe('costUsd on responses', () => {
  it.each([
    ['JSON', false],
    ['SSE', true],
  ])(
    'prices a %s turn of a listed model, cached input at the cached rate',
    async (_label, stream) => {
      server.enqueue({ kind: 'turn', text: 'ok', usage });
      const response = await provider({ stream }).complete(request);
      // gpt-4.1: $2 input, $0.50 cached input, $8 output per 1M tokens.
      expect(response.costUsd).toBe((800 * 2 + 200 * 0.5 + 100 * 8) / 1e6);
    },
  );

  it('prices the model the server reports, a dated snapshot as its base model', async () => {
    server.enqueue({ kind: 'turn', usage, model: 'gpt-4o-mini-2024-07-18' });
    const response = await provider().complete(request);
    expect(response.model).toBe('gpt-4o-mini-2024-07-18');
    expect(response.costUsd).toBe((800 * 0.15 + 200 * 0.075 + 100 * 0.6) / 1e6);
  });

  it('leaves a model it has no price for unpriced', async () => {
    server.enqueue({ kind: 'turn', usage });
    const response = await provider({ model: 'llama-3.3-70b' }).complete(request);
    expect(response.usage).toBeDefined();
    expect(response).not.toHaveProperty('costUsd');
  });

  it('leaves a response without usage unpriced', async () => {
    const body = {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4.1',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
    };
    server.enqueue({ kind: 'raw', status: 200, body: JSON.stringify(body) });
    const response = await provider({ stream: false }).complete(request);
    expect(response).not.toHaveProperty('usage');
    expect(response).not.toHaveProperty('costUsd');
  });

  it('takes the prices option over the package table: new models added, listed ones replaced whole', async () => {
    server.enqueue({ kind: 'turn', usage }, { kind: 'turn', usage });
    const prices = {
      'llama-3.3-70b': { inputPerMTok: 0.5, outputPerMTok: 1 },
      'gpt-4.1': { inputPerMTok: 1, outputPerMTok: 4 },
    };
    const local = await provider({ model: 'llama-3.3-70b', prices }).complete(request);
    expect(local.costUsd).toBe((1_000 * 0.5 + 100 * 1) / 1e6);
    const replaced = await provider({ prices }).complete(request);
    // No cached rate in the replacement: cached input costs the input rate.
    expect(replaced.costUsd).toBe((1_000 * 1 + 100 * 4) / 1e6);
    expect(openaiPriceTable['gpt-4.1']?.inputPerMTok).toBe(2);
  });
});
