import { runStateSchema } from '@tiny-claw/core';
import { z } from 'zod';
import { recordIdSchema } from './record-id.js';

/**
 * Schema of `sessions/<key>/checkpoints/<id>.json`: the run state of a paused run, with the
 * approval request it waits for.
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
