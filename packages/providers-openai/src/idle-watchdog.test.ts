import { describe, expect, it } from 'vitest';
import { IdleWatchdog, withActivity } from './idle-watchdog.js';

describe('IdleWatchdog', () => {
  it('fires after the idle limit and not while it is touched', async () => {
    const watchdog = new IdleWatchdog(100);
    for (let i = 0; i < 4; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 40));
      watchdog.touch();
    }
    expect(watchdog.fired).toBe(false);
    await new Promise<void>((resolve) =>
      watchdog.signal.addEventListener('abort', () => resolve()),
    );
    expect(watchdog.fired).toBe(true);
    expect((watchdog.signal.reason as Error).message).toBe('no data for 100 ms');
  });

  it('never fires once stopped', async () => {
    const watchdog = new IdleWatchdog(20);
    watchdog.stop();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(watchdog.fired).toBe(false);
  });
});

describe('withActivity', () => {
  it('reports the headers and every body chunk, passing the bytes through unchanged', async () => {
    let seen = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(': keep-alive\n\n'));
        controller.enqueue(new TextEncoder().encode('data: [DONE]\n\n'));
        controller.close();
      },
    });
    const fetchImpl = (async () =>
      new Response(body, { status: 201, headers: { 'x-a': '1' } })) as typeof fetch;
    const response = await withActivity(fetchImpl, () => {
      seen += 1;
    })('http://example.invalid');
    expect(response.status).toBe(201);
    expect(response.headers.get('x-a')).toBe('1');
    expect(await response.text()).toBe(': keep-alive\n\ndata: [DONE]\n\n');
    expect(seen).toBe(3);
  });
});
