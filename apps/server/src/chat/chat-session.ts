import { resolveSession, type SessionRef } from '@tiny-claw/core';
import { normalizeSessionPart } from '@tiny-claw/core/utils';

/** The session source of a chat's sessions: the first word of their keys. */
export const CHAT_SESSION_SOURCE = 'feishu';

/**
 * The session of one Feishu/Lark chat in `workdir`: every message of a chat shares it, keyed
 * `feishu-<12 hex of the real workdir>-chat-<normalised chat id>` (the key the original project
 * used too, so a chat keeps its memory across versions).
 *
 * @example
 * (await chatSession('/repo', 'oc_AbC')).key; // 'feishu-1a2b3c4d5e6f-chat-oc_abc'
 */
export function chatSession(workdir: string, chatId: string): Promise<SessionRef> {
  return resolveSession({
    source: CHAT_SESSION_SOURCE,
    workdir,
    externalId: `chat:${normalizeSessionPart(chatId)}`,
    displayName: `chat:${chatId}`,
  });
}
