export * from './memory-store.js';
export * from './session-key.js';
export * from './session-manager.js';
export * from './session-ref.js';
