import { MEMORY_MAX_LINES, memoryValue } from '../session/memory-value.js';
import type { RunMemory } from './state-store.js';

/**
 * The memory of one session kept in this process, held to the file store's rules: each value
 * redacted and capped, only the last {@link MEMORY_MAX_LINES} lines kept.
 *
 * @example
 * const memory = memoryRunMemory();
 * await memory.append([{ key: 'last_prompt', value: 'hi' }]);
 * await memory.readRecent(); // ['last_prompt: hi']
 */
export function memoryRunMemory(): RunMemory {
  const lines: string[] = [];
  return {
    async append(entries) {
      for (const entry of entries) {
        lines.push(`${memoryValue(entry.key)}: ${memoryValue(entry.value)}`);
      }
      if (lines.length > MEMORY_MAX_LINES) lines.splice(0, lines.length - MEMORY_MAX_LINES);
    },
    async readRecent(limit = 5) {
      return limit >= 1 ? lines.slice(-Math.floor(limit)) : [];
    },
  };
}
