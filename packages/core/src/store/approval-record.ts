import { z } from 'zod';
import { toolCallSchema } from '../messages.js';
import { sessionSourceSchema } from '../session/session-ref.js';
import { recordIdSchema } from './record-id.js';

/**
 * Where an approval request stands. `pending` until someone decides; the one decision that wins
 * the claim makes it `claimed`; answering the call makes it `consumed` (an approved call ran,
 * whatever its outcome) or `rejected`. A request decided too late becomes `expired`; one whose
 * checkpoint was missing, changed, or whose file changed since the request becomes `failed`
 * (nothing ran). A claim whose process died before finishing becomes `unknown_outcome`: the call
 * may or may not have run, and it is never run again automatically.
 *
 * @example
 * const open = approvalStatuses.filter((s) => s === 'pending');
 */
export const approvalStatuses = [
  'pending',
  'claimed',
  'consumed',
  'rejected',
  'expired',
  'failed',
  'unknown_outcome',
] as const;

/**
 * One of {@link approvalStatuses}.
 *
 * @example
 * const status: ApprovalStatus = 'pending';
 */
export type ApprovalStatus = (typeof approvalStatuses)[number];

/**
 * Why a claimed approval ended as `failed`.
 *
 * @example
 * const failure: ApprovalFailure = 'drifted';
 */
export const approvalFailures = ['checkpoint_missing', 'tampered', 'drifted'] as const;

/**
 * One of {@link approvalFailures}.
 *
 * @example
 * if (record.failure === 'tampered') console.warn('the checkpoint was edited');
 */
export type ApprovalFailure = (typeof approvalFailures)[number];

const isoTime = z.iso.datetime({ offset: true });
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * Schema of the process that claimed a decision: enough to tell later whether it is still alive.
 *
 * @example
 * claimantSchema.parse({ pid: 4242, host: 'build-1', at: '2026-01-01T00:00:00.000Z' });
 */
export const claimantSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  at: isoTime,
});

/**
 * The process that claimed a decision.
 *
 * @example
 * const by: Claimant = { pid: process.pid, host: hostname(), at: new Date().toISOString() };
 */
export type Claimant = z.infer<typeof claimantSchema>;

/**
 * Schema of the one-time claim on an approval request: the claimant, who decided, and what.
 *
 * @example
 * claimTicketSchema.parse({ pid: 4242, host: 'build-1', at: '2026-01-01T00:00:00.000Z', actor: 'cli:me', decision: 'approve' });
 */
export const claimTicketSchema = claimantSchema.extend({
  actor: z.string(),
  /** `expire` when the claim was taken to record that the request ran out of time. */
  decision: z.enum(['approve', 'reject', 'expire']),
});

/**
 * The one-time claim on an approval request: who took it, and for what. Whoever holds it is the
 * only one who may change the request's status from `pending`.
 *
 * @example
 * const ticket: ClaimTicket = { pid: process.pid, host: hostname(), at: now, actor: 'cli:me', decision: 'approve' };
 */
export type ClaimTicket = z.infer<typeof claimTicketSchema>;

/**
 * Schema of an approval request as a store keeps it (the file store: `sessions/<key>/approvals/<id>.json`),
 * checked whenever a record is read back.
 *
 * @example
 * const record = approvalRecordSchema.parse(JSON.parse(text));
 */
export const approvalRecordSchema = z.object({
  schemaVersion: z.literal(1),
  id: recordIdSchema,
  checkpointId: recordIdSchema,
  sessionKey: z.string().min(1),
  sessionSource: sessionSourceSchema,
  sessionExternalId: z.string(),
  /**
   * Where the run was asked for (the run's `origin`: a chat's id when a chat asked), or null; a
   * decision is taken only from the same origin.
   */
  chatId: z.string().nullable(),
  /** Who started the run that asked (a chat user, `cli:<user>`), or `unknown`. */
  requestedBy: z.string(),
  workdir: z.string().min(1),
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  arguments: toolCallSchema.shape.arguments,
  toolCallHash: sha256Hex,
  /** Real path → sha256 of each file the call would change, as it was at the request. */
  preImage: z.record(
    z.string(),
    z.union([sha256Hex, z.enum(['not_a_file', 'unreadable'])]).nullable(),
  ),
  riskReasons: z.array(z.string()),
  status: z.enum(approvalStatuses),
  createdAt: isoTime,
  expiresAt: isoTime,
  decision: z.enum(['approve', 'reject']).optional(),
  decidedBy: z.string().optional(),
  decidedAt: isoTime.optional(),
  decisionReason: z.string().optional(),
  claimedBy: claimantSchema.optional(),
  failure: z.enum(approvalFailures).optional(),
  completedAt: isoTime.optional(),
});

/**
 * A persisted approval request and what became of it.
 *
 * @example
 * if (record.status === 'pending') console.log(`${record.toolName} waits for a decision`);
 */
export type ApprovalRecord = z.infer<typeof approvalRecordSchema>;
