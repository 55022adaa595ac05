import { z } from 'zod';

/**
 * Which front end a session belongs to, as a short lower-case word that starts its key: core's own
 * are `cli` (a session of the CLI or the library), `subagent` (a child run's) and `run` (the session
 * of a run started without one, which keeps nothing); a front end names
 * its own (a chat server, say). Core never branches on any other value.
 *
 * @example
 * const source: SessionSource = 'cli';
 */
export type SessionSource = string;

/**
 * Schema of a {@link SessionSource}: 1 to 32 lower-case letters, digits and `_`, starting with a
 * letter (no `-`, which separates the parts of a session key).
 *
 * @example
 * sessionSourceSchema.parse('cli');
 */
export const sessionSourceSchema = z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, {
  error: 'a session source is 1 to 32 lower-case letters, digits or _, starting with a letter',
});

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
  source: sessionSourceSchema,
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
  source: sessionSourceSchema,
  externalId: z.string(),
  displayName: z.string(),
  workdir: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** Contents of `sessions/<key>/meta.json`. */
export type SessionMeta = z.infer<typeof sessionMetaSchema>;
