/**
 * @tiny-claw/testkit/state-store (private) — the contract every `StateStore` keeps, as vitest
 * tests: run it on a store implementation from that implementation's own tests.
 *
 * @example
 * import { stateStoreContract } from '@tiny-claw/testkit/state-store';
 * stateStoreContract('createFileStore', async (clock) => { … });
 *
 * @module
 */

export { ContractClock, type StateStoreSubject, stateStoreContract } from './contract.js';
export { checkpointOf, pendingApproval } from './records.js';
