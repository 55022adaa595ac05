import { join } from 'node:path';
import type { Logger, SessionRef } from '@tiny-claw/core';
import { type SessionMeta, sessionMetaSchema } from '@tiny-claw/core/store';
import {
  QuarantinedFileError,
  readJsonFile,
  sessionDirectory,
  writeJsonAtomic,
} from '../files/index.js';

/**
 * Record `session` in `<stateDir>/sessions/<key>/meta.json` (0600, atomic), keeping its first
 * `createdAt`. A corrupt file is quarantined with a warning and replaced: it is a record, not
 * state a run depends on. Any other failure (permissions, I/O) surfaces as an error.
 *
 * @example
 * await writeSessionMeta(stateDir, session, logger);
 */
export async function writeSessionMeta(
  stateDir: string,
  session: SessionRef,
  logger: Logger,
): Promise<void> {
  const path = join(sessionDirectory(stateDir, session.key), 'meta.json');
  let existing: SessionMeta | undefined;
  try {
    existing = await readJsonFile(path, sessionMetaSchema);
  } catch (error) {
    if (!(error instanceof QuarantinedFileError)) throw error;
    logger.warn(`${error.message} A fresh session record was written.`);
  }
  const now = new Date().toISOString();
  const meta: SessionMeta = {
    schemaVersion: 1,
    ...session,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  await writeJsonAtomic(path, meta);
}
