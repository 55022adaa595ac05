import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { normalizeSessionPart, sessionKey, validateSessionName } from './session-key.js';
import type { SessionRef, SessionSource } from './session-ref.js';

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
 * The session of one Feishu/Lark chat in `workdir`: every message of a chat shares it.
 *
 * @example
 * (await feishuChatSession('/repo', 'oc_AbC')).key; // 'feishu-1a2b3c4d5e6f-chat-oc_abc'
 */
export async function feishuChatSession(workdir: string, chatId: string): Promise<SessionRef> {
  return sessionRef('feishu', workdir, `chat:${normalizeSessionPart(chatId)}`, `chat:${chatId}`);
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
