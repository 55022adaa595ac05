import { scrubSecrets } from '@tiny-claw/core/utils';
import { KNOWN_VARIABLE_NAMES } from '@tiny-claw/runtime';

/**
 * What every chat message and log line of the server goes through: the known secrets, anything
 * shaped like a credential and any fragment of a known secret removed — but never a setting name.
 * The server's own sentences name settings (`FEISHU_APPROVERS`, `TINY_CLAW_APPROVAL_PROVIDER`);
 * a secret that happens to contain `FEISHU` or `APPROVERS` must not turn them into `[redacted]`.
 *
 * @example
 * scrubServerText('ask someone in FEISHU_APPROVERS', ['FEISHU-9f8e7d']); // unchanged
 */
export function scrubServerText(text: string, knownSecrets: readonly string[]): string {
  return scrubSecrets(text, knownSecrets, { keep: KNOWN_VARIABLE_NAMES });
}
