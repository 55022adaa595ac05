import { describe, expect, it } from 'vitest';
import { EventBus } from './event-bus.js';
import type { Logger } from './logger.js';
import type { RunEvent } from './run-events.js';

const delta = (text: string): RunEvent => ({ type: 'text.delta', runId: 'r', step: 1, text });

function logger() {
  const warnings: string[] = [];
  const log: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} };
  return { warnings, log };
}

describe('EventBus', () => {
  it('delivers every event to every listener, in order, as it is emitted', () => {
    const seen: string[] = [];
    const bus = new EventBus(
      [
        (e) => void seen.push(`a:${e.type === 'text.delta' ? e.text : ''}`),
        undefined,
        (e) => void seen.push(`b:${e.type}`),
      ],
      logger().log,
    );
    bus.emit(delta('1'));
    bus.emit(delta('2'));
    expect(seen).toEqual(['a:1', 'b:text.delta', 'a:2', 'b:text.delta']);
  });

  it('logs a listener that throws or rejects and still reaches the others', async () => {
    const { warnings, log } = logger();
    const seen: string[] = [];
    const bus = new EventBus(
      [
        () => {
          throw new Error('sync boom');
        },
        () => Promise.reject(new Error('async boom')),
        (e) => void seen.push(e.type),
      ],
      log,
    );
    bus.emit(delta('x'));
    await bus.settled();
    expect(seen).toEqual(['text.delta']);
    expect(warnings).toEqual([
      'run event listener failed event=text.delta error=sync boom',
      'run event listener failed event=text.delta error=async boom',
    ]);
  });

  it('settles only after every promise a listener returned, including ones started while waiting', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const bus = new EventBus(
      [
        async (e) => {
          if (e.type === 'text.delta' && e.text === 'first') {
            await held;
            order.push('first written');
            bus.emit(delta('second'));
          } else order.push('second written');
        },
      ],
      logger().log,
    );
    bus.emit(delta('first'));
    const settled = bus.settled().then(() => order.push('settled'));
    await Promise.resolve();
    expect(order).toEqual([]);
    release();
    await settled;
    expect(order).toEqual(['first written', 'second written', 'settled']);
  });
});
