/** The longest rejection reason kept; the rest of a long one is cut. */
export const MAX_REASON_CHARS = 500;

const COMMAND = /^\/(approve|reject)(?=\s|$)/i;
const FULL = /^\/(approve|reject)\s+([A-Za-z0-9_-]{8,64})(?:\s+([\s\S]*))?$/i;

/**
 * What a chat message asks of the approval flow: a decision, a decision written wrongly (the
 * person is told how to write it, and nothing runs), or nothing (`undefined`: an ordinary prompt).
 *
 * @example
 * const command: ApprovalCommand = { kind: 'decision', decision: 'reject', approvalId: 'ap_0bX3kR9d2Lqv', reason: 'not today' };
 */
export type ApprovalCommand =
  | { kind: 'decision'; decision: 'approve' | 'reject'; approvalId: string; reason?: string }
  | { kind: 'malformed'; decision: 'approve' | 'reject' };

/**
 * Read `/approve <id>` or `/reject <id> [reason]` (any case) from a message's text, after mention
 * placeholders were stripped. The id must be 8–64 letters, digits, `_` or `-` (so `../../x`,
 * `%2e%2e` or `id;` are refused); words after the id are the reason (kept with an approval too),
 * cut to 500 characters. A message that starts with the command but does not fit is `malformed`, never a
 * prompt for the model.
 *
 * @example
 * parseApprovalCommand('/APPROVE ap_0bX3kR9d2Lqv'); // { kind: 'decision', decision: 'approve', approvalId: 'ap_0bX3kR9d2Lqv' }
 * parseApprovalCommand('/approve ../../etc/passwd'); // { kind: 'malformed', decision: 'approve' }
 * parseApprovalCommand('approve it please'); // undefined
 */
export function parseApprovalCommand(text: string): ApprovalCommand | undefined {
  const trimmed = text.trim();
  const start = COMMAND.exec(trimmed);
  if (!start) return undefined;
  const decision = (start[1] as string).toLowerCase() as 'approve' | 'reject';
  const match = FULL.exec(trimmed);
  const rest = match?.[3]?.trim() ?? '';
  if (!match) return { kind: 'malformed', decision };
  const command: ApprovalCommand = { kind: 'decision', decision, approvalId: match[2] as string };
  if (rest !== '') command.reason = [...rest].slice(0, MAX_REASON_CHARS).join('');
  return command;
}
