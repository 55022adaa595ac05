export * from './atomic-write.js';
export * from './confined-write.js';
export * from './errno.js';
export * from './jsonl-append.js';
export * from './path-lock.js';
export * from './read-json.js';
