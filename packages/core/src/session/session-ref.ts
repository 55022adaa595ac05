import { z } from 'zod';

/**
 * Which front end a session belongs to.
 *
 * @example
 * const source: SessionSource = 'cli';
 */
export const sessionSources = ['cli', 'feishu', 'subagent'] as const;

/**
 * One of {@link sessionSources}.
 *
 * @example
 * if (session.source === 'subagent') console.log('child session');
 */
export type SessionSource = (typeof sessionSources)[number];

/**
 * A resolved session: its key (where its state lives) and the workdir it is bound to.
 *
 * @example
 * const session: SessionRef = { key: 'cli-1a2b3c4d5e6f-default', source: 'cli', externalId: 'default', displayName: 'default', workdir: '/repo' };
 */
export interface SessionRef {
  key: string;
  source: SessionSource;
  externalId: string;
  displayName: string;
  workdir: string;
}

/**
 * Schema of a {@link SessionRef} read back from disk (inside checkpoints).
 *
 * @example
 * const session = sessionRefSchema.parse(json.session);
 */
export const sessionRefSchema = z.object({
  key: z.string().min(1),
  source: z.enum(sessionSources),
  externalId: z.string(),
  displayName: z.string(),
  workdir: z.string().min(1),
});

/**
 * Schema of `sessions/<key>/meta.json`, checked whenever the file is read back.
 *
 * @example
 * const meta = sessionMetaSchema.parse(JSON.parse(text));
 */
export const sessionMetaSchema = z.object({
  schemaVersion: z.literal(1),
  key: z.string(),
  source: z.enum(sessionSources),
  externalId: z.string(),
  displayName: z.string(),
  workdir: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** Contents of `sessions/<key>/meta.json`. */
export type SessionMeta = z.infer<typeof sessionMetaSchema>;
