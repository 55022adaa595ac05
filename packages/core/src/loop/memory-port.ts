import type { SessionRef } from '../session/session-ref.js';

/** The memory of one session as the loop uses it. */
export interface RunMemory {
  append(entries: Array<{ key: string; value: string }>): Promise<void>;
  readRecent(limit?: number): Promise<string[]>;
}

/** Gives each session its memory. */
export interface RunMemoryFactory {
  forSession(session: Pick<SessionRef, 'key'>): RunMemory;
}
