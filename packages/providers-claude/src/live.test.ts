import { msg } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { ClaudeProvider } from './claude-provider.js';

// Runs only with a real key; CI has none, so it shows up as skipped rather than silently absent.
const apiKey = process.env.ANTHROPIC_API_KEY ?? '';
const model = process.env.TINY_CLAW_MODEL || 'claude-haiku-4-5';

describe.skipIf(apiKey === '')('live Anthropic API (needs ANTHROPIC_API_KEY)', () => {
  const provider = () =>
    new ClaudeProvider({
      apiKey,
      ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}),
      model,
      maxTokens: 256,
    });

  it('streams a short answer with usage', async () => {
    const deltas: string[] = [];
    const response = await provider().complete(
      { messages: [msg.user('Reply with the single word: pong')], tools: [], toolChoice: 'auto' },
      { onTextDelta: (delta) => deltas.push(delta) },
    );
    expect(response.message.content.toLowerCase()).toContain('pong');
    expect(deltas.join('')).toBe(response.message.content);
    expect(response.usage?.inputTokens).toBeGreaterThan(0);
  }, 60_000);

  it('calls a tool when asked to', async () => {
    const response = await provider().complete({
      messages: [msg.user('Read the file notes.txt using the read tool.')],
      tools: [
        {
          name: 'read',
          description: 'Read a text file',
          parameters: {
            type: 'object',
            properties: { path: { type: 'string' } },
            required: ['path'],
          },
        },
      ],
      toolChoice: 'auto',
    });
    expect(response.message.toolCalls?.[0]).toMatchObject({
      name: 'read',
      arguments: { path: 'notes.txt' },
    });
  }, 60_000);
});
