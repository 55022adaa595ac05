export * from './atomic-write.js';
export * from './errno.js';
export * from './read-json.js';
