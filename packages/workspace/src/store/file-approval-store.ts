import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  type ApprovalRecord,
  type ApprovalStore,
  type ClaimTicket,
  errorMessage,
  type ListApprovalsOptions,
  StateError,
} from '@tiny-claw/core';
import {
  approvalRecordSchema,
  checkRecordId,
  claimTicketSchema,
  recordIdPattern,
} from '@tiny-claw/core/store';
import { isErrnoError, validateSessionKey } from '@tiny-claw/core/utils';
import { sessionDirectory, withPathLock } from '../files/index.js';
import { entryExists, readRecordFile, writeRecordFile } from './record-file.js';
import { isSessionKey, listDirectory } from './session-dirs.js';

const RECORD_NAME = /^([A-Za-z0-9_-]{16,64})\.json$/;

/**
 * Approval requests as files: `<stateDir>/sessions/<key>/approvals/<id>.json` (0600, in 0700
 * directories, written atomically). The claim on a request is a second file, `<id>.claim`, that
 * only one process can ever create; it stays as a tombstone, so a request edited back to `pending`
 * still cannot be decided twice.
 *
 * @example
 * const store = new FileApprovalStore('/home/me/.tiny-claw');
 * const record = await store.read(session.key, 'ap_0bX3kR9d2LqvYw7aP1sT4g');
 */
export class FileApprovalStore implements ApprovalStore {
  readonly stateDir: string;

  constructor(stateDir: string) {
    this.stateDir = stateDir;
  }

  async create(record: ApprovalRecord): Promise<void> {
    const path = this.#path(record.sessionKey, record.id);
    await withPathLock(path, async () => {
      if (await entryExists(path)) {
        throw new StateError(`approval ${record.id} already exists at ${path}`);
      }
      await writeRecordFile(path, approvalRecordSchema.parse(record));
    });
  }

  async read(sessionKey: string, id: string): Promise<ApprovalRecord | undefined> {
    return readRecordFile(this.#path(sessionKey, id), approvalRecordSchema);
  }

  async write(record: ApprovalRecord): Promise<void> {
    const path = this.#path(record.sessionKey, record.id);
    await withPathLock(path, () => writeRecordFile(path, approvalRecordSchema.parse(record)));
  }

  async locate(id: string): Promise<string | undefined> {
    checkRecordId(id);
    for (const key of await this.#sessionKeys()) {
      if (await entryExists(this.#path(key, id))) return key;
    }
    return undefined;
  }

  async list(options: ListApprovalsOptions = {}): Promise<ApprovalRecord[]> {
    const keys =
      options.sessionKey === undefined
        ? await this.#sessionKeys()
        : [validateSessionKey(options.sessionKey)];
    const records: ApprovalRecord[] = [];
    let firstProblem: StateError | undefined;
    for (const key of keys) {
      for (const id of await this.#recordIds(key)) {
        try {
          const record = await this.read(key, id);
          if (record) records.push(record);
        } catch (error) {
          if (!(error instanceof StateError)) throw error;
          if (options.onUnreadable) options.onUnreadable(error);
          else firstProblem ??= error;
        }
      }
    }
    if (firstProblem) throw firstProblem;
    return records.sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
    );
  }

  async claim(sessionKey: string, id: string, ticket: ClaimTicket): Promise<boolean> {
    const claimPath = this.#claimPath(sessionKey, id);
    // The ticket is written completely under a private name first and then hard-linked to the
    // claim name: link(2) fails with EEXIST when the name exists, so exactly one process wins, and
    // nobody ever sees a half-written ticket (an O_EXCL create would expose an empty file).
    const draft = `${claimPath}.${randomBytes(6).toString('hex')}.draft`;
    await mkdir(dirname(claimPath), { recursive: true, mode: 0o700 });
    await writeFile(draft, `${JSON.stringify(claimTicketSchema.parse(ticket))}\n`, {
      mode: 0o600,
      flag: 'wx',
      flush: true,
    });
    try {
      await link(draft, claimPath);
      return true;
    } catch (error) {
      if (isErrnoError(error, 'EEXIST')) return false;
      throw new StateError(
        `Could not claim approval ${id} (${claimPath}): ${errorMessage(error)}`,
        {
          cause: error,
        },
      );
    } finally {
      await unlink(draft).catch(() => {});
    }
  }

  async ticket(sessionKey: string, id: string): Promise<ClaimTicket | undefined> {
    let text: string;
    try {
      text = await readFile(this.#claimPath(sessionKey, id), 'utf8');
    } catch (error) {
      if (isErrnoError(error, 'ENOENT')) return undefined;
      throw error;
    }
    try {
      return claimTicketSchema.parse(JSON.parse(text));
    } catch {
      // Not a ticket this package wrote: the claim is still held, by someone unknown.
      return undefined;
    }
  }

  #path(sessionKey: string, id: string): string {
    return join(
      sessionDirectory(this.stateDir, sessionKey),
      'approvals',
      `${checkRecordId(id)}.json`,
    );
  }

  #claimPath(sessionKey: string, id: string): string {
    return join(
      sessionDirectory(this.stateDir, sessionKey),
      'approvals',
      `${checkRecordId(id)}.claim`,
    );
  }

  async #sessionKeys(): Promise<string[]> {
    const names = await listDirectory(join(this.stateDir, 'sessions'));
    return names.filter(isSessionKey).sort();
  }

  async #recordIds(sessionKey: string): Promise<string[]> {
    const names = await listDirectory(
      join(sessionDirectory(this.stateDir, sessionKey), 'approvals'),
    );
    return names.flatMap((name) => {
      const id = RECORD_NAME.exec(name)?.[1];
      return id !== undefined && recordIdPattern.test(id) ? [id] : [];
    });
  }
}
