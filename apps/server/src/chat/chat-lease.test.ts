import { createMemoryStore, type Lease, type LeaseStore } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import type { ChatLeaseEvent, ChatLeaseOptions } from './chat-lease.js';
import { ChatQueue, type ChatTask } from './chat-queue.js';

const TTL_MS = 1000;

/** A clock the test moves by hand: leases expire only when the test says so. */
function fakeClock() {
  let now = Date.parse('2026-01-01T00:00:00Z');
  return {
    clock: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** Leases of one store, counting renewals and failing on demand. */
function watchedLeases(inner: LeaseStore) {
  const state = { renewals: 0, acquires: 0, failing: false };
  const leases: LeaseStore = {
    acquire: async (key, holder, ttlMs) => {
      state.acquires += 1;
      if (state.failing) throw new Error('database unreachable');
      const lease = await inner.acquire(key, holder, ttlMs);
      if (!lease) return undefined;
      const watched: Lease = {
        key: lease.key,
        holder: lease.holder,
        get expiresAt() {
          return lease.expiresAt;
        },
        renew: async (ttl) => {
          const kept = await lease.renew(ttl);
          state.renewals += 1;
          return kept;
        },
        release: () => lease.release(),
      };
      return watched;
    },
  };
  return { leases, state };
}

/** A replica's queue on the shared leases, recording its lease events. */
function replica(leases: LeaseStore, holder: string, extra: Partial<ChatLeaseOptions> = {}) {
  const events: ChatLeaseEvent[] = [];
  const queue = new ChatQueue({
    lease: { leases, holder, ttlMs: TTL_MS, pollMs: 5, onEvent: (e) => events.push(e), ...extra },
  });
  return { queue, events };
}

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

/** Resolves once `check` holds, looking again after each short pause. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('chat queue with leases', () => {
  it("runs a chat's work one task at a time across two replicas sharing the leases", async () => {
    const store = createMemoryStore();
    const log: string[] = [];
    const a = replica(store.leases, 'replica-a');
    const b = replica(store.leases, 'replica-b');
    const first = gatedTask('oc_1', log, 'first');
    const second = gatedTask('oc_1', log, 'second');
    a.queue.push(first.task);
    await first.began;
    b.queue.push(second.task);
    await until(() => b.events.some((e) => e.kind === 'waiting'));
    expect(log).toEqual(['start first']);
    expect(b.queue.running).toBe(1);
    first.release();
    await second.began;
    second.release();
    await Promise.all([a.queue.idle(), b.queue.idle()]);
    expect(log).toEqual(['start first', 'end first', 'start second', 'end second']);
    // Released when done: anyone may take it now.
    expect(await store.leases.acquire('chat:oc_1', 'someone', TTL_MS)).toBeDefined();
  });

  it('lets other chats run while one chat waits for its lease', async () => {
    const store = createMemoryStore();
    const log: string[] = [];
    const held = await store.leases.acquire('chat:oc_busy', 'replica-a', TTL_MS);
    const b = replica(store.leases, 'replica-b');
    const waiting = gatedTask('oc_busy', log, 'waiting');
    const other = gatedTask('oc_free', log, 'other');
    b.queue.push(waiting.task);
    b.queue.push(other.task);
    await other.began;
    other.release();
    await until(() => log.includes('end other'));
    expect(log).toEqual(['start other', 'end other']);
    await held?.release();
    await waiting.began;
    waiting.release();
    await b.queue.idle();
  });

  it("takes over a crashed replica's chat once its lease expires, and not before", async () => {
    const time = fakeClock();
    const store = createMemoryStore({ clock: time.clock });
    // The crashed replica took the lease and never renews or releases it.
    await store.leases.acquire('chat:oc_1', 'crashed', TTL_MS);
    const watched = watchedLeases(store.leases);
    const log: string[] = [];
    const b = replica(watched.leases, 'replica-b');
    const task = gatedTask('oc_1', log, 'queued');
    b.queue.push(task.task);
    await until(() => b.events.some((e) => e.kind === 'waiting'));
    time.advance(TTL_MS - 1);
    // Two more tries with the lease a millisecond short of expiring: neither takes it.
    const tried = watched.state.acquires;
    await until(() => watched.state.acquires >= tried + 2);
    expect(log).toEqual([]);
    time.advance(1);
    await task.began;
    task.release();
    await b.queue.idle();
    expect(log).toEqual(['start queued', 'end queued']);
  });

  it('renews the lease while a task runs longer than the lease, so no other replica takes the chat', async () => {
    const time = fakeClock();
    const store = createMemoryStore({ clock: time.clock });
    const watched = watchedLeases(store.leases);
    const a = replica(watched.leases, 'replica-a', { renewMs: 5 });
    const log: string[] = [];
    const long = gatedTask('oc_1', log, 'long');
    a.queue.push(long.task);
    await long.began;
    // Past the lease taken at the start: only a renewal since keeps it.
    time.advance(TTL_MS * 3);
    const seen = watched.state.renewals;
    await until(() => watched.state.renewals >= seen + 2);
    expect(await store.leases.acquire('chat:oc_1', 'replica-b', TTL_MS)).toBeUndefined();
    long.release();
    await a.queue.idle();
    expect(a.events).toEqual([]);
  });

  it('reports a lease lost when another replica took it over after it expired unrenewed', async () => {
    const time = fakeClock();
    const store = createMemoryStore({ clock: time.clock });
    const a = replica(store.leases, 'replica-a', { renewMs: 5 });
    const log: string[] = [];
    const long = gatedTask('oc_1', log, 'long');
    a.queue.push(long.task);
    await long.began;
    time.advance(TTL_MS * 3);
    expect(await store.leases.acquire('chat:oc_1', 'replica-b', TTL_MS)).toBeDefined();
    await until(() => a.events.length > 0);
    expect(a.events).toEqual([{ kind: 'lost', chatId: 'oc_1' }]);
    long.release();
    await a.queue.idle();
    // Releasing a lease taken over leaves it with its new holder.
    expect(await store.leases.acquire('chat:oc_1', 'replica-c', TTL_MS)).toBeUndefined();
  });

  it.each([
    ['finishes', async () => {}],
    ['throws', async () => Promise.reject(new Error('boom'))],
  ])('releases the lease when a task %s', async (_name, run) => {
    const store = createMemoryStore();
    const a = replica(store.leases, 'replica-a');
    a.queue.push({ chatId: 'oc_1', replyTo: 'om_1', run });
    await a.queue.idle();
    expect(await store.leases.acquire('chat:oc_1', 'replica-b', TTL_MS)).toBeDefined();
  });

  it('reports a failing store and runs the task once the store answers again', async () => {
    const store = createMemoryStore();
    const watched = watchedLeases(store.leases);
    watched.state.failing = true;
    const a = replica(watched.leases, 'replica-a');
    const log: string[] = [];
    const task = gatedTask('oc_1', log, 'task');
    a.queue.push(task.task);
    await until(() => a.events.some((e) => e.kind === 'error'));
    expect(log).toEqual([]);
    expect(a.events[0]).toMatchObject({ kind: 'error', chatId: 'oc_1' });
    watched.state.failing = false;
    await task.began;
    task.release();
    await a.queue.idle();
  });

  it('hands back, unstarted, a task still waiting for its lease when the queue stops', async () => {
    const store = createMemoryStore();
    await store.leases.acquire('chat:oc_1', 'replica-a', TTL_MS);
    const b = replica(store.leases, 'replica-b');
    const log: string[] = [];
    b.queue.push(gatedTask('oc_1', log, 'waiting').task);
    b.queue.push(gatedTask('oc_1', log, 'behind').task);
    await until(() => b.events.some((e) => e.kind === 'waiting'));
    expect(b.queue.stop().map((t) => t.replyTo)).toEqual(['om_waiting', 'om_behind']);
    await b.queue.idle();
    expect(log).toEqual([]);
  });

  it.each([
    ['gets the lease', true, ['start late', 'end late'], []],
    ['finds it held by another replica', false, [], ['om_late']],
  ])(
    'lets a task whose first try is under way at stop run when it %s, and reports it dropped otherwise',
    async (_name, free, ran, dropped) => {
      const store = createMemoryStore();
      if (!free) await store.leases.acquire('chat:oc_1', 'replica-a', TTL_MS);
      let answer: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        answer = resolve;
      });
      let tries = 0;
      const slowLeases: LeaseStore = {
        acquire: async (key, holder, ttl) => {
          tries += 1;
          await gate;
          return store.leases.acquire(key, holder, ttl);
        },
      };
      const reported: string[] = [];
      const queue = new ChatQueue({
        lease: { leases: slowLeases, holder: 'replica-b', ttlMs: TTL_MS, pollMs: 5 },
        onDropped: async (task) => {
          reported.push(task.replyTo);
        },
      });
      const log: string[] = [];
      const task = gatedTask('oc_1', log, 'late');
      queue.push(task.task);
      await until(() => tries === 1);
      expect(queue.stop()).toEqual([]);
      answer();
      if (free) {
        await task.began;
        task.release();
      }
      await queue.idle();
      expect(log).toEqual(ran);
      expect(reported).toEqual(dropped);
      expect(tries).toBe(1);
    },
  );
});
