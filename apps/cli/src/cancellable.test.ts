import { afterEach, describe, expect, it, vi } from 'vitest';
import { cancellable } from './cancellable.js';
import type { Output } from './output.js';

function output() {
  const text = { stderr: '' };
  const out: Output = {
    stdout: () => {},
    stderr: (t) => {
      text.stderr += t;
    },
    color: false,
    interactive: false,
  };
  return { out, text };
}

/** Work that ends only when it is aborted, the way a run ends `cancelled`. */
const untilAborted = (started: () => void) => (signal: AbortSignal) =>
  new Promise<string>((done) => {
    signal.addEventListener('abort', () => done('cancelled'));
    started();
  });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('cancellable', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} aborts the work, says which signal came and how to quit at once`, async () => {
      const { out, text } = output();
      const outcome = cancellable(
        out,
        untilAborted(() => process.emit(signal, signal)),
      );
      await expect(outcome).resolves.toEqual({ value: 'cancelled', signal });
      expect(text.stderr).toContain(`${signal}`);
      expect(text.stderr).toContain('received: cancelling the run');
      expect(text.stderr).toContain('again to quit at once');
    });
  }

  it('a second signal of any kind quits at once through process.exit, with its own code', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const kill = vi.spyOn(process, 'kill');
    const { out } = output();
    let release: () => void = () => {};
    const work = cancellable(
      out,
      () =>
        new Promise<string>((done) => {
          release = () => done('done');
          process.emit('SIGINT', 'SIGINT');
          process.emit('SIGTERM', 'SIGTERM');
        }),
    );
    expect(exit).toHaveBeenCalledWith(143);
    expect(kill).not.toHaveBeenCalled();
    release();
    await expect(work).resolves.toEqual({ value: 'done', signal: 'SIGINT' });
  });

  it('leaves the signals alone once the work is over', async () => {
    const before = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((s) => process.listenerCount(s));
    await cancellable(output().out, async () => 'ok');
    expect(['SIGINT', 'SIGTERM', 'SIGHUP'].map((s) => process.listenerCount(s))).toEqual(before);
  });

  it('reports no signal when the work ends by itself', async () => {
    await expect(cancellable(output().out, async () => 'ok')).resolves.toEqual({
      value: 'ok',
      signal: undefined,
    });
  });
});
