export * from './resolve-session.js';
export * from './session-key.js';
export * from './session-ref.js';
