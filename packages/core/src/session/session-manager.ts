import { realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Logger } from '../observe/logger.js';
import { nullLogger } from '../observe/logger.js';
import { writeJsonAtomic } from '../store/atomic-write.js';
import { QuarantinedFileError, readJsonFile } from '../store/read-json.js';
import {
  normalizeSessionPart,
  sessionDirectory,
  sessionKey,
  validateSessionName,
} from './session-key.js';
import type { SessionMeta, SessionRef, SessionSource } from './session-ref.js';
import { sessionMetaSchema } from './session-ref.js';

/** Options of {@link SessionManager}. */
export interface SessionManagerOptions {
  /** Root of tiny-claw's private state; sessions live in `<stateDir>/sessions/<key>/`. */
  stateDir: string;
  /** The directory the agent works in; part of every key. */
  workdir: string;
  logger?: Logger;
}

/**
 * Resolves who a run belongs to into a {@link SessionRef} and records it in
 * `<stateDir>/sessions/<key>/meta.json`.
 *
 * @example
 * const sessions = new SessionManager({ stateDir, workdir: process.cwd() });
 * const session = await sessions.resolveCli('Debug Login'); // key 'cli-1a2b3c4d5e6f-debug-login'
 */
export class SessionManager {
  readonly stateDir: string;
  readonly workdir: string;
  readonly #logger: Logger;

  constructor(options: SessionManagerOptions) {
    this.stateDir = resolve(options.stateDir);
    this.workdir = options.workdir;
    this.#logger = options.logger ?? nullLogger;
  }

  /**
   * The CLI session called `name` (default `default`) in this workdir.
   *
   * @throws ConfigurationError when `name` is over 100 characters or has control characters.
   *
   * @example
   * (await sessions.resolveCli()).key; // 'cli-1a2b3c4d5e6f-default'
   */
  async resolveCli(name?: string): Promise<SessionRef> {
    if (name !== undefined) validateSessionName(name);
    const id = normalizeSessionPart(name ?? 'default');
    return this.#resolve('cli', id, id);
  }

  /**
   * The session of one Feishu/Lark chat: every message of a chat shares it.
   *
   * @example
   * (await sessions.resolveFeishuChat('oc_AbC')).key; // 'feishu-1a2b3c4d5e6f-chat-oc_abc'
   */
  async resolveFeishuChat(chatId: string): Promise<SessionRef> {
    return this.#resolve('feishu', `chat:${normalizeSessionPart(chatId)}`, `chat:${chatId}`);
  }

  /**
   * `<stateDir>/sessions/<key>`; the key is validated first so it can never escape `sessions/`.
   *
   * @example
   * sessions.sessionDir(session.key);
   */
  sessionDir(key: string): string {
    return sessionDirectory(this.stateDir, key);
  }

  async #resolve(
    source: SessionSource,
    externalId: string,
    displayName: string,
  ): Promise<SessionRef> {
    const workdir = await realWorkdir(this.workdir);
    const session: SessionRef = {
      key: sessionKey(source, workdir, externalId),
      source,
      externalId,
      displayName,
      workdir,
    };
    await this.#writeMeta(session);
    return session;
  }

  async #writeMeta(session: SessionRef): Promise<void> {
    const path = join(this.sessionDir(session.key), 'meta.json');
    let existing: SessionMeta | undefined;
    try {
      existing = await readJsonFile(path, sessionMetaSchema);
    } catch (error) {
      // meta.json is a record, not state a run depends on: the corrupt copy is kept aside and the
      // run goes on. Any other failure (permissions, I/O) is real and must surface.
      if (!(error instanceof QuarantinedFileError)) throw error;
      this.#logger.warn(`${error.message} A fresh session record was written.`);
    }
    const now = new Date().toISOString();
    const meta: SessionMeta = {
      schemaVersion: 1,
      ...session,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    await writeJsonAtomic(path, meta);
  }
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
