import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointRecord, CheckpointStore } from '@tiny-claw/core';
import { checkpointRecordSchema, checkRecordId } from '@tiny-claw/core/store';
import { isErrnoError } from '@tiny-claw/core/utils';
import { sessionDirectory, withPathLock } from '../files/index.js';
import { readRecordFile, writeRecordFile } from './record-file.js';

/**
 * Paused runs as files: `<stateDir>/sessions/<key>/checkpoints/<id>.json` (0600, in 0700
 * directories). A write replaces the file atomically, so a crash leaves the old checkpoint or the
 * new one, never a mix; a corrupt one is moved aside and reported, never silently replaced. A
 * checkpoint is deleted once its request can no longer be resumed.
 *
 * @example
 * const checkpoints = new FileCheckpointStore('/home/me/.tiny-claw');
 * const checkpoint = await checkpoints.read(session.key, record.checkpointId);
 */
export class FileCheckpointStore implements CheckpointStore {
  readonly stateDir: string;

  constructor(stateDir: string) {
    this.stateDir = stateDir;
  }

  async save(record: CheckpointRecord): Promise<void> {
    const path = this.#path(record.sessionKey, record.id);
    await withPathLock(path, () => writeRecordFile(path, checkpointRecordSchema.parse(record)));
  }

  async read(sessionKey: string, id: string): Promise<CheckpointRecord | undefined> {
    return readRecordFile(this.#path(sessionKey, id), checkpointRecordSchema);
  }

  async delete(sessionKey: string, id: string): Promise<void> {
    const path = this.#path(sessionKey, id);
    await withPathLock(path, async () => {
      try {
        await unlink(path);
      } catch (error) {
        if (!isErrnoError(error, 'ENOENT')) throw error;
      }
    });
  }

  #path(sessionKey: string, id: string): string {
    const dir = join(sessionDirectory(this.stateDir, sessionKey), 'checkpoints');
    return join(dir, `${checkRecordId(id, 'checkpoint')}.json`);
  }
}
