import { StateError } from '../errors.js';
import { validateSessionKey } from '../session/session-key.js';
import { type ApprovalRecord, approvalRecordSchema, type ClaimTicket } from './approval-record.js';
import type { ApprovalStore, ListApprovalsOptions } from './approval-store.js';
import { checkRecordId } from './record-id.js';

/**
 * Approval requests kept in memory, the `approvals` of `createMemoryStore()`: the same rules as
 * the file store (validated ids and records, one claim per request, ever), nothing written to
 * disk, nothing survives the process. Records are copied in and out, so a caller holding one
 * cannot change what is stored.
 *
 * @example
 * const approvals = new MemoryApprovalStore();
 * await approvals.create(record);
 */
export class MemoryApprovalStore implements ApprovalStore {
  readonly #records = new Map<string, ApprovalRecord>();
  readonly #tickets = new Map<string, ClaimTicket>();

  async create(record: ApprovalRecord): Promise<void> {
    const key = slot(record.sessionKey, record.id);
    if (this.#records.has(key)) throw new StateError(`approval ${record.id} already exists`);
    this.#records.set(key, approvalRecordSchema.parse(structuredClone(record)));
  }

  async read(sessionKey: string, id: string): Promise<ApprovalRecord | undefined> {
    const record = this.#records.get(slot(sessionKey, id));
    return record === undefined ? undefined : structuredClone(record);
  }

  async write(record: ApprovalRecord): Promise<void> {
    this.#records.set(
      slot(record.sessionKey, record.id),
      approvalRecordSchema.parse(structuredClone(record)),
    );
  }

  async locate(id: string): Promise<string | undefined> {
    checkRecordId(id);
    for (const record of this.#records.values()) if (record.id === id) return record.sessionKey;
    return undefined;
  }

  async list(options: ListApprovalsOptions = {}): Promise<ApprovalRecord[]> {
    const wanted =
      options.sessionKey === undefined ? undefined : validateSessionKey(options.sessionKey);
    return [...this.#records.values()]
      .filter((record) => wanted === undefined || record.sessionKey === wanted)
      .map((record) => structuredClone(record))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async claim(sessionKey: string, id: string, ticket: ClaimTicket): Promise<boolean> {
    const key = slot(sessionKey, id);
    // Check and set with no await in between: one caller wins in this process.
    if (this.#tickets.has(key)) return false;
    this.#tickets.set(key, { ...ticket });
    return true;
  }

  async ticket(sessionKey: string, id: string): Promise<ClaimTicket | undefined> {
    const ticket = this.#tickets.get(slot(sessionKey, id));
    return ticket === undefined ? undefined : { ...ticket };
  }
}

function slot(sessionKey: string, id: string): string {
  return `${validateSessionKey(sessionKey)}/${checkRecordId(id)}`;
}
