import { validateSessionKey } from '../session/session-key.js';
import {
  checkTraceEntry,
  checkTraceId,
  compareTraceEntries,
  type TraceEntry,
  type TraceIndex,
} from './trace-index.js';

/**
 * The trace index kept in this process: entries are copied in and out, so a caller holding one
 * cannot change what is stored.
 *
 * @example
 * const traces = memoryTraceIndex();
 * await traces.record({ traceId: '5f0c', sessionKey: 'cli-1a2b3c4d5e6f-default', path: '/tmp/5f0c.json' });
 */
export function memoryTraceIndex(): TraceIndex {
  const entries = new Map<string, TraceEntry>();
  return {
    async record(entry) {
      const checked = checkTraceEntry(entry);
      entries.set(checked.traceId, checked);
    },
    async locate(traceId) {
      const entry = entries.get(checkTraceId(traceId));
      return entry === undefined ? undefined : { ...entry };
    },
    async list(query = {}) {
      const wanted =
        query.sessionKey === undefined ? undefined : validateSessionKey(query.sessionKey);
      return [...entries.values()]
        .filter((entry) => wanted === undefined || entry.sessionKey === wanted)
        .map((entry) => ({ ...entry }))
        .sort(compareTraceEntries);
    },
  };
}
