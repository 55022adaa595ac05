import { type LLMRequest, msg, ProviderError } from '@tiny-claw/core';
import { type FakeLlmServer, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIProvider, type OpenAIProviderOptions } from './index.js';

// Error mapping: the kind the loop acts on, one key-free line starting with the prefix.

const KEY = 'sk-proj-SECRETabcdefghijklmnopqrst0123456789wxyz';

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

const provider = (options: Partial<OpenAIProviderOptions> = {}) =>
  new OpenAIProvider({ apiKey: KEY, baseURL: server.openaiBaseUrl, model: 'gpt-test', ...options });

const request: LLMRequest = { messages: [msg.user('hi')], tools: [], toolChoice: 'auto' };

async function errorOf(options: Partial<OpenAIProviderOptions> = {}): Promise<ProviderError> {
  const error = await provider(options)
    .complete(request)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(ProviderError);
  const providerError = error as ProviderError;
  expect(providerError.message).toMatch(/^OpenAI request failed: /);
  expect(providerError.message).not.toMatch(/\n/);
  return providerError;
}

/** No piece of the key (8+ characters, or its last 4) may appear. */
function expectNoKey(text: string): void {
  expect(text).not.toContain(KEY);
  expect(text).not.toContain(KEY.slice(-4));
  for (let i = 0; i + 8 <= KEY.length; i += 1) expect(text).not.toContain(KEY.slice(i, i + 8));
}

describe('auth', () => {
  it.each([401, 403])(
    '%s becomes kind auth, unretried, naming OPENAI_API_KEY but never the key',
    async (status) => {
      server.enqueue({
        kind: 'error',
        status,
        message: `Incorrect API key provided: sk-proj-SEC*********************wxyz. Full echo: ${KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      });
      const error = await errorOf();
      expect(error).toMatchObject({ kind: 'auth', status, isRetryable: false });
      expect(error.message).toContain(`${status}`);
      expect(error.message).toContain('OPENAI_API_KEY');
      expect(error.message).toContain('Incorrect API key provided: [redacted]');
      expectNoKey(error.message);
      expectNoKey(String(error.stack));
      expect(server.requests).toHaveLength(1);
    },
  );
});

describe('not found and bad requests', () => {
  it('404 names the model and the base URL', async () => {
    server.enqueue({ kind: 'error', status: 404, message: 'The model `gpt-nope` does not exist' });
    const error = await errorOf({ model: 'gpt-nope' });
    expect(error).toMatchObject({ kind: 'not_found', status: 404, isRetryable: false });
    expect(error.message).toContain('"gpt-nope"');
    expect(error.message).toContain(server.openaiBaseUrl);
    expect(error.message).toContain('does not exist');
    expect(server.requests).toHaveLength(1);
  });

  it('a base URL with credentials never shows them (fetch refuses such URLs outright)', async () => {
    const withCredentials = server.openaiBaseUrl.replace('http://', 'http://user:hunter2@');
    const error = await errorOf({ baseURL: withCredentials, maxRetries: 0 });
    expect(error).toMatchObject({ kind: 'connection' });
    expect(error.message).toContain(server.openaiBaseUrl);
    expect(error.message).not.toContain('hunter2');
  });

  it('other 400s are bad_request, unretried, with the server message', async () => {
    server.enqueue({ kind: 'error', status: 400, message: "Invalid 'tools[0].function.name'" });
    const error = await errorOf();
    expect(error).toMatchObject({ kind: 'bad_request', status: 400, isRetryable: false });
    expect(error.message).toBe(
      "OpenAI request failed: 400 bad request: Invalid 'tools[0].function.name'",
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe('context length', () => {
  it('a context_length_exceeded code is kind context_length', async () => {
    server.enqueue({
      kind: 'error',
      status: 400,
      errorType: 'context_length_exceeded',
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
    });
    const error = await errorOf();
    expect(error).toMatchObject({ kind: 'context_length', status: 400, isRetryable: false });
    expect(error.message).toMatch(
      /^OpenAI request failed: 400 the request is too long for model "gpt-test"/,
    );
  });

  it('a compatible server saying "prompt is too long" in words is kind context_length', async () => {
    server.enqueue({
      kind: 'error',
      status: 400,
      message: 'prompt is too long: 209840 tokens > 200000 maximum',
    });
    expect(await errorOf()).toMatchObject({ kind: 'context_length' });
  });
});

describe('upstream text is scrubbed', () => {
  it('a key echoed in a server error is removed', async () => {
    server.enqueue({ kind: 'error', status: 500, message: `upstream failed for Bearer ${KEY}` });
    const error = await errorOf({ maxRetries: 0 });
    expect(error.message).toBe(
      'OpenAI request failed: 500 server error (0 retries): upstream failed for Bearer [redacted]',
    );
  });

  it('a non-JSON error page is cut to one short line', async () => {
    server.enqueue({
      kind: 'raw',
      status: 400,
      headers: { 'content-type': 'text/html' },
      body: `<html>\n<body>\n${'Bad gateway config '.repeat(100)}\n</body></html>`,
    });
    const error = await errorOf();
    expect(error).toMatchObject({ kind: 'bad_request', status: 400 });
    expect(error.message.length).toBeLessThan(400);
  });
});
