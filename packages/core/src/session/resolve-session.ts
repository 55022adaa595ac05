import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConfigurationError } from '../errors.js';
import { normalizeSessionPart, sessionKey, validateSessionName } from './session-key.js';
import { type SessionRef, type SessionSource, sessionSourceSchema } from './session-ref.js';

/**
 * The CLI session called `name` (default `default`) in `workdir`: the session `tiny-claw run
 * --session NAME` uses, keyed `cli-<12 hex of the real workdir>-<normalised name>`, so a symlinked
 * and a real path of one directory share it.
 *
 * @throws ConfigurationError when `name` is over 100 characters or has control characters.
 *
 * @example
 * (await cliSession('/repo', 'Debug Login')).key; // 'cli-1a2b3c4d5e6f-debug-login'
 */
export async function cliSession(workdir: string, name?: string): Promise<SessionRef> {
  if (name !== undefined) validateSessionName(name);
  const id = normalizeSessionPart(name ?? 'default');
  return sessionRef('cli', workdir, id, id);
}

/**
 * The session a front end keeps for one conversation of its own (a chat, a ticket, a thread) in
 * `workdir`: keyed `<source>-<12 hex of the real workdir>-<normalised external id>`, so every
 * message of that conversation shares it. `displayName` defaults to the external id.
 *
 * @throws ConfigurationError when `source` is not a session source (see {@link sessionSourceSchema}) or the external id is empty.
 *
 * @example
 * (await resolveSession({ source: 'chat', workdir: '/repo', externalId: 'room:42' })).key; // 'chat-1a2b3c4d5e6f-room-42'
 */
export async function resolveSession(input: {
  source: SessionSource;
  workdir: string;
  externalId: string;
  displayName?: string;
}): Promise<SessionRef> {
  const source = sessionSourceSchema.safeParse(input.source);
  if (!source.success) {
    throw new ConfigurationError(
      `session source ${JSON.stringify(input.source)} is invalid: ${source.error.issues[0]?.message ?? ''}.`,
    );
  }
  if (typeof input.externalId !== 'string' || input.externalId.trim() === '') {
    throw new ConfigurationError(
      'a session needs a non-empty external id (the conversation it is for).',
    );
  }
  return sessionRef(
    source.data,
    input.workdir,
    input.externalId,
    input.displayName ?? input.externalId,
  );
}

async function sessionRef(
  source: SessionSource,
  workdir: string,
  externalId: string,
  displayName: string,
): Promise<SessionRef> {
  const real = await realWorkdir(workdir);
  return {
    key: sessionKey(source, real, externalId),
    source,
    externalId,
    displayName,
    workdir: real,
  };
}

/** Symlinked and real paths of one directory must give one session; a missing one is kept as is. */
async function realWorkdir(workdir: string): Promise<string> {
  const absolute = resolve(workdir);
  try {
    return await realpath(absolute);
  } catch {
    return absolute;
  }
}
