import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type RawSseEvent, streamAttempt, TextSinkError } from './stream-attempt.js';

const sse = (type: string, body: Record<string, unknown> = {}): RawSseEvent => ({
  event: type,
  data: JSON.stringify({ type, ...body }),
});

const fullTurn: RawSseEvent[] = [
  sse('message_start', { message: { model: 'm', usage: { input_tokens: 1, output_tokens: 0 } } }),
  sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'hi' } }),
  sse('content_block_stop', { index: 0 }),
  sse('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } }),
  sse('message_stop'),
];

function attempt(events: () => AsyncIterable<RawSseEvent>, idleTimeoutMs = 5_000) {
  return streamAttempt({
    open: async () => new Response(''),
    events,
    idleTimeoutMs,
  });
}

describe('streamAttempt', () => {
  it('counts pings as activity, so a long but alive stream is not abandoned', async () => {
    // Eight pings 150 ms apart outlast the 1 s idle timeout only if each ping resets it.
    const result = await attempt(async function* () {
      yield fullTurn[0] as RawSseEvent;
      for (let i = 0; i < 8; i += 1) {
        await sleep(150);
        yield { event: 'ping', data: '{"type":"ping"}' };
      }
      yield* fullTurn.slice(1);
    }, 1_000);
    expect(result).toMatchObject({ ok: true, turn: { text: 'hi' } });
  });

  it('reports a stream that ends without message_stop as cut', async () => {
    const result = await attempt(async function* () {
      yield* fullTurn.slice(0, -1);
    });
    expect(result).toMatchObject({ ok: false, failure: { reason: 'cut' } });
  });

  it('reports an event: error as sse-error with its type', async () => {
    const result = await attempt(async function* () {
      yield fullTurn[0] as RawSseEvent;
      yield {
        event: 'error',
        data: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      };
    });
    expect(result).toMatchObject({
      ok: false,
      failure: {
        reason: 'sse-error',
        detail: expect.stringContaining('overloaded_error: Overloaded'),
      },
    });
  });

  it('reports a body that throws mid-read as cut', async () => {
    const result = await attempt(async function* () {
      yield fullTurn[0] as RawSseEvent;
      throw new TypeError('terminated');
    });
    expect(result).toMatchObject({
      ok: false,
      failure: { reason: 'cut', detail: expect.stringContaining('terminated') },
    });
  });

  it('wraps an onTextDelta failure so the provider can rethrow it unchanged', async () => {
    const boom = new Error('sink');
    const call = streamAttempt({
      open: async () => new Response(''),
      events: async function* () {
        yield* fullTurn;
      },
      idleTimeoutMs: 5_000,
      onTextDelta: () => {
        throw boom;
      },
    });
    await expect(call).rejects.toBeInstanceOf(TextSinkError);
    await expect(call).rejects.toMatchObject({ cause: boom });
  });
});
