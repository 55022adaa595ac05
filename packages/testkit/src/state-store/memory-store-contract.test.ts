import { createMemoryStore } from '@tiny-claw/core';
import { stateStoreContract } from './contract.js';

stateStoreContract('createMemoryStore', (clock) => ({
  store: createMemoryStore({ clock }),
  writeTrace: async (sessionKey, traceId) => `memory:${sessionKey}/${traceId}`,
}));
