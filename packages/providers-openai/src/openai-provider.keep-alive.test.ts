import { msg } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { OpenAIProvider } from './index.js';

// The idle watchdog counts bytes, not parsed events: SSE keep-alive comments (sent by some
// compatible servers while a model thinks) keep a slow stream alive. Uses the `fetch` option to
// pace the bytes exactly.

function pacedSse(parts: Array<{ afterMs: number; text: string }>): typeof fetch {
  return (async () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const part of parts) {
          await new Promise((resolve) => setTimeout(resolve, part.afterMs));
          controller.enqueue(encoder.encode(part.text));
        }
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }) as typeof fetch;
}

const chunk = (delta: unknown, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

describe('idle watchdog and keep-alive comments', () => {
  it('a stream silent in data but alive in bytes is not aborted', async () => {
    const keepAlive = { afterMs: 50, text: ': still thinking\n\n' };
    const provider = new OpenAIProvider({
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'reasoner',
      idleTimeoutMs: 400,
      streamRetries: 0,
      fetch: pacedSse([
        { afterMs: 0, text: chunk({ role: 'assistant', content: '' }) },
        // 600 ms without a data event, but never 400 ms without a byte.
        ...Array.from({ length: 12 }, () => keepAlive),
        { afterMs: 0, text: chunk({ content: 'thought it through' }, 'stop') },
        { afterMs: 0, text: 'data: [DONE]\n\n' },
      ]),
    });
    const response = await provider.complete({
      messages: [msg.user('hard question')],
      tools: [],
      toolChoice: 'auto',
    });
    expect(response.message.content).toBe('thought it through');
  });
});
