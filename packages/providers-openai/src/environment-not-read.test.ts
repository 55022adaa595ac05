import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIProvider } from './index.js';

// The vendor SDK fills options it is not given from the environment (OPENAI_BASE_URL, …). The
// provider gives them all, so the key goes only where its own options say and no header of
// someone else's is added.
const planted = [
  ['OPENAI_BASE_URL', 'http://127.0.0.1:9/v1'],
  ['OPENAI_ORG_ID', 'org-someone-else'],
  ['OPENAI_PROJECT_ID', 'proj-someone-else'],
  ['OPENAI_LOG', 'debug'],
] as const;
const saved = new Map<string, string | undefined>();

beforeEach(() => {
  for (const [name, value] of planted) {
    saved.set(name, process.env[name]);
    process.env[name] = value;
  }
});
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A fetch that records each request and answers 400, so the call ends at once without retries. */
function recordingFetch(seen: { url: string; headers: Headers }[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    seen.push({ url: request.url, headers: request.headers });
    return new Response(
      JSON.stringify({ error: { message: 'stop here', type: 'invalid_request_error' } }),
      {
        status: 400,
        headers: { 'content-type': 'application/json' },
      },
    );
  };
}

describe('OpenAIProvider reads nothing from the environment', () => {
  it.each([
    ['without baseURL, the vendor default', undefined, 'https://api.openai.com/v1'],
    ['with baseURL, exactly that', 'http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1'],
  ])('sends requests %s, whatever OPENAI_BASE_URL says', async (_label, baseURL, expected) => {
    const seen: { url: string; headers: Headers }[] = [];
    const provider = new OpenAIProvider({
      apiKey: 'sk-mine',
      model: 'gpt-4.1',
      maxRetries: 0,
      stream: false,
      fetch: recordingFetch(seen),
      ...(baseURL === undefined ? {} : { baseURL }),
    });
    await expect(
      provider.complete({
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        toolChoice: 'auto',
      }),
    ).rejects.toThrow();
    expect(seen.length).toBe(1);
    expect(seen[0]?.url.startsWith(expected)).toBe(true);
    for (const header of ['openai-organization', 'openai-project']) {
      expect(seen[0]?.headers.get(header) ?? '').not.toContain('someone-else');
    }
  });
});
