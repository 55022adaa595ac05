import { z } from 'zod';
import { runStateSchema } from '../loop/run-state.js';
import { recordIdSchema } from './record-id.js';

/**
 * Schema of a paused run as a store keeps it (the file store:
 * `sessions/<key>/checkpoints/<id>.json`): the run state, with the approval request it waits for.
 *
 * @example
 * const checkpoint = checkpointRecordSchema.parse(JSON.parse(text));
 */
export const checkpointRecordSchema = z.object({
  schemaVersion: z.literal(1),
  id: recordIdSchema,
  sessionKey: z.string().min(1),
  approvalId: recordIdSchema,
  createdAt: z.iso.datetime({ offset: true }),
  state: runStateSchema,
});

/**
 * A paused run as stored.
 *
 * @example
 * const waiting = checkpoint.state.pending?.calls;
 */
export type CheckpointRecord = z.infer<typeof checkpointRecordSchema>;
