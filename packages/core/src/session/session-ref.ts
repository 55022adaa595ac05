import { z } from 'zod';

/** Which front end a session belongs to. */
export type SessionSource = 'cli' | 'feishu' | 'subagent';

/** A resolved session: where its state lives and which workdir it is bound to. */
export interface SessionRef {
  key: string;
  source: SessionSource;
  externalId: string;
  displayName: string;
  workdir: string;
}

/**
 * Schema of `sessions/<key>/meta.json`, checked whenever the file is read back.
 *
 * @example
 * const meta = sessionMetaSchema.parse(JSON.parse(text));
 */
export const sessionMetaSchema = z.object({
  schemaVersion: z.literal(1),
  key: z.string(),
  source: z.enum(['cli', 'feishu', 'subagent']),
  externalId: z.string(),
  displayName: z.string(),
  workdir: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** Contents of `sessions/<key>/meta.json`. */
export type SessionMeta = z.infer<typeof sessionMetaSchema>;
