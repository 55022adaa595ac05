import { describe, expect, it } from 'vitest';
import { ChatQueue, type ChatTask } from './chat-queue.js';

/** A task that runs until the test releases it, recording when it starts. */
function gatedTask(chatId: string, log: string[], name: string) {
  let release: () => void = () => {};
  let started: () => void = () => {};
  const began = new Promise<void>((resolve) => {
    started = resolve;
  });
  const task: ChatTask = {
    chatId,
    replyTo: `om_${name}`,
    run: () =>
      new Promise<void>((resolve) => {
        log.push(`start ${name}`);
        started();
        release = () => {
          log.push(`end ${name}`);
          resolve();
        };
      }),
  };
  return { task, began, release: () => release() };
}

describe('chat queue', () => {
  it('runs one task at a time per chat, in order, and chats side by side', async () => {
    const log: string[] = [];
    const queue = new ChatQueue();
    const a1 = gatedTask('a', log, 'a1');
    const a2 = gatedTask('a', log, 'a2');
    const b1 = gatedTask('b', log, 'b1');
    for (const t of [a1, a2, b1]) expect(queue.push(t.task)).toBe(true);
    await Promise.all([a1.began, b1.began]);
    expect(log).toEqual(['start a1', 'start b1']);
    expect({ running: queue.running, waiting: queue.waiting }).toEqual({ running: 2, waiting: 1 });
    a1.release();
    await a2.began;
    expect(log).toEqual(['start a1', 'start b1', 'end a1', 'start a2']);
    a2.release();
    b1.release();
    await queue.idle();
    expect(queue.running).toBe(0);
  });

  it('runs at most maxRunning chats at once; the others take turns in arrival order', async () => {
    const log: string[] = [];
    const queue = new ChatQueue({ maxRunning: 2 });
    const a = gatedTask('a', log, 'a');
    const b = gatedTask('b', log, 'b');
    const c = gatedTask('c', log, 'c');
    const a2 = gatedTask('a', log, 'a2');
    for (const t of [a, b, c, a2]) queue.push(t.task);
    await Promise.all([a.began, b.began]);
    expect({ running: queue.running, waiting: queue.waiting }).toEqual({ running: 2, waiting: 2 });
    a.release();
    // Chat c waited longer than a's second message: it goes first.
    await c.began;
    expect(log).toEqual(['start a', 'start b', 'end a', 'start c']);
    b.release();
    await a2.began;
    c.release();
    a2.release();
    await queue.idle();
    expect(log.slice(-3)).toEqual(['start a2', 'end c', 'end a2']);
  });

  it('starts only minRunning chats while the process is busy, and the others once it has time again', async () => {
    const log: string[] = [];
    let busy = true;
    const queue = new ChatQueue({ minRunning: 1, maxRunning: 10, busy: () => busy });
    const a = gatedTask('a', log, 'a');
    const b = gatedTask('b', log, 'b');
    queue.push(a.task);
    queue.push(b.task);
    await a.began;
    expect({ running: queue.running, waiting: queue.waiting }).toEqual({ running: 1, waiting: 1 });
    busy = false;
    await b.began;
    expect(queue.running).toBe(2);
    a.release();
    b.release();
    await queue.idle();
  });

  it('keeps going after a task fails, and reports the failure', async () => {
    const errors: unknown[] = [];
    const queue = new ChatQueue({ onError: (error) => errors.push(error) });
    const ran: string[] = [];
    queue.push({
      chatId: 'a',
      replyTo: 'om_1',
      run: async () => Promise.reject(new Error('boom')),
    });
    queue.push({ chatId: 'a', replyTo: 'om_2', run: async () => void ran.push('second') });
    await queue.idle();
    expect(ran).toEqual(['second']);
    expect(String(errors[0])).toContain('boom');
  });

  it('turns work away beyond its bounds, and hands back waiting work when stopped', async () => {
    const log: string[] = [];
    const queue = new ChatQueue({ maxPerChat: 1, maxTotal: 10 });
    const first = gatedTask('a', log, 'first');
    expect(queue.push(first.task)).toBe(true);
    expect(queue.push(gatedTask('a', log, 'second').task)).toBe(true);
    expect(queue.push(gatedTask('a', log, 'third').task)).toBe(false);
    await first.began;
    const dropped = queue.stop();
    expect(dropped.map((t) => t.replyTo)).toEqual(['om_second']);
    expect(queue.push(gatedTask('b', log, 'late').task)).toBe(false);
    first.release();
    await queue.idle();
    expect(log).toEqual(['start first', 'end first']);
  });
});
