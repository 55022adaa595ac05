export * from './memory-store.js';
export * from './resolve-session.js';
export * from './session-key.js';
export * from './session-meta.js';
export * from './session-ref.js';
