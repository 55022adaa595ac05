import { msg } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { OpenAIProvider } from './index.js';

// A real one-turn completion against OpenAI (or OPENAI_BASE_URL). Runs only with a key, so the
// offline suite never needs one; set OPENAI_MODEL to pick a model (default gpt-4.1-mini).

const apiKey = process.env.OPENAI_API_KEY ?? '';
const skipReason = 'live OpenAI test skipped: set OPENAI_API_KEY to run it';

describe.skipIf(apiKey === '')(`live OpenAI (${apiKey === '' ? skipReason : 'enabled'})`, () => {
  const provider = () =>
    new OpenAIProvider({
      apiKey,
      ...(process.env.OPENAI_BASE_URL ? { baseURL: process.env.OPENAI_BASE_URL } : {}),
      model: process.env.OPENAI_MODEL ?? 'gpt-4.1-mini',
      maxTokens: 200,
    });

  it('streams a one-turn completion with usage', { timeout: 60_000 }, async () => {
    const deltas: string[] = [];
    const response = await provider().complete(
      {
        messages: [msg.user('Reply with exactly the word: pong')],
        tools: [],
        toolChoice: 'auto',
      },
      { onTextDelta: (delta) => deltas.push(delta) },
    );
    expect(response.message.content.toLowerCase()).toContain('pong');
    expect(deltas.join('')).toBe(response.message.content);
    expect(response.usage?.inputTokens).toBeGreaterThan(0);
    expect(response.stopReason).toBe('stop');
  });
});
