import type { StateStore } from '@tiny-claw/core';
import { afterEach, beforeEach, describe } from 'vitest';
import { approvalRules } from './approval-rules.js';
import { leaseRules } from './lease-rules.js';
import { runStateRules } from './run-state-rules.js';
import { seenKeyRules } from './seen-key-rules.js';
import { sessionRules } from './session-rules.js';
import { traceIndexRules } from './trace-index-rules.js';

/**
 * One store under test, as the contract's `make` builds it for each test.
 *
 * @example
 * const subject: StateStoreSubject = { store: createMemoryStore({ clock }), writeTrace: async (k, id) => `memory:${k}/${id}` };
 */
export interface StateStoreSubject {
  store: StateStore;
  /**
   * Put a trace of `sessionKey` with id `traceId` where this store's tracer would write it, and
   * return where it is: what `store.traces.record` is then given as `path`.
   */
  writeTrace(sessionKey: string, traceId: string): Promise<string>;
  /** Remove what the subject made (a temp directory, a database schema); after each test. */
  cleanup?(): Promise<void>;
}

/**
 * A clock the contract moves by hand, so expiries are tested without waiting.
 *
 * @example
 * const clock = new ContractClock();
 * clock.advance(1000);
 */
export class ContractClock {
  #now = Date.parse('2026-01-01T00:00:00.000Z');

  /** The time, as a store's `clock` option takes it. */
  readonly now = (): Date => new Date(this.#now);

  /** Move the time on by `ms` milliseconds. */
  advance(ms: number): void {
    this.#now += ms;
  }
}

/**
 * What the contract's rules get: the store of the current test and its clock.
 *
 * @example
 * it('…', async () => { const { store, clock } = context(); });
 */
export type ContractContext = () => StateStoreSubject & { clock: ContractClock };

/**
 * Register the state-store contract as vitest tests: every rule `StateStore` documents, checked
 * through the interface only — sessions, memory and plans round trips; run states saved, read
 * and deleted; approval requests created, read, written, listed and located, and their claim
 * (exactly one of many concurrent claims wins, for good); seen keys (the first caller
 * wins, repeats lose until the ttl runs out, exactly one of many concurrent callers wins); leases
 * (exclusive, released, taken over after expiry, exactly one of many concurrent acquirers);
 * the trace index. `make` builds a fresh store for each test and must make it keep time by the
 * clock it is given (`clock` of `createMemoryStore` and `createFileStore`; a database store
 * compares with that time instead of its own `now()`).
 *
 * @example
 * stateStoreContract('createMemoryStore', (clock) => ({
 *   store: createMemoryStore({ clock }),
 *   writeTrace: async (sessionKey, traceId) => `memory:${sessionKey}/${traceId}`,
 * }));
 */
export function stateStoreContract(
  name: string,
  make: (clock: () => Date) => StateStoreSubject | Promise<StateStoreSubject>,
): void {
  describe(`${name} keeps the state-store contract`, () => {
    let current: (StateStoreSubject & { clock: ContractClock }) | undefined;
    beforeEach(async () => {
      const clock = new ContractClock();
      current = { ...(await make(clock.now)), clock };
    });
    afterEach(async () => {
      await current?.store.close();
      await current?.cleanup?.();
      current = undefined;
    });
    const context: ContractContext = () => {
      if (!current) throw new Error('the contract store is made before each test');
      return current;
    };
    describe('sessions, memory and plans', () => sessionRules(context));
    describe('run states', () => runStateRules(context));
    describe('approvals', () => approvalRules(context));
    describe('seen keys', () => seenKeyRules(context));
    describe('leases', () => leaseRules(context));
    describe('trace index', () => traceIndexRules(context));
  });
}
