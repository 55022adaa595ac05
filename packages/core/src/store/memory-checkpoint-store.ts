import { validateSessionKey } from '../session/session-key.js';
import type { CheckpointStore } from './approval-store.js';
import { type CheckpointRecord, checkpointRecordSchema } from './checkpoint-record.js';
import { checkRecordId } from './record-id.js';

/**
 * Paused runs kept in memory, the `runStates` of `createMemoryStore()`: validated like the file
 * store's, copied in and out, gone when the process ends.
 *
 * @example
 * const runStates = new MemoryCheckpointStore();
 * await runStates.save(checkpoint);
 */
export class MemoryCheckpointStore implements CheckpointStore {
  readonly #records = new Map<string, CheckpointRecord>();

  async save(record: CheckpointRecord): Promise<void> {
    this.#records.set(
      slot(record.sessionKey, record.id),
      checkpointRecordSchema.parse(structuredClone(record)),
    );
  }

  async read(sessionKey: string, id: string): Promise<CheckpointRecord | undefined> {
    const record = this.#records.get(slot(sessionKey, id));
    return record === undefined ? undefined : structuredClone(record);
  }

  async delete(sessionKey: string, id: string): Promise<void> {
    this.#records.delete(slot(sessionKey, id));
  }
}

function slot(sessionKey: string, id: string): string {
  return `${validateSessionKey(sessionKey)}/${checkRecordId(id, 'checkpoint')}`;
}
