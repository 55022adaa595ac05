import type { ApprovalRecord } from './approvals-args.js';
import { approvalsText, showText } from './approvals-strings.js';
import { type DescribeShellCommand, previewCall } from './call-preview.js';
import { printable } from './terminal-text.js';

/**
 * One approval record in full for `tiny-claw approvals show`: status, tool, session, who asked
 * and when, the decision and its outcome, every reason, the files the call would change with
 * their state at the request, the arguments, and — while it is pending — what the call would
 * change. Everything is made safe to print.
 *
 * @example
 * process.stdout.write(await renderApprovalRecord(record, { color: false, describeShellCommand }));
 */
export async function renderApprovalRecord(
  record: ApprovalRecord,
  options: { color: boolean; describeShellCommand: DescribeShellCommand; now?: Date },
): Promise<string> {
  const f = showText.fields;
  const now = options.now ?? new Date();
  const expired = record.status === 'pending' && Date.parse(record.expiresAt) <= now.getTime();
  const rows: Array<[string, string | undefined]> = [
    [f.id, record.id],
    [f.status, `${record.status}${expired ? approvalsText.expiredSuffix : ''}`],
    [f.tool, record.toolName],
    [
      f.session,
      record.sessionSource === 'cli'
        ? `${record.sessionExternalId} (${record.sessionKey})`
        : record.sessionKey,
    ],
    [f.workdir, record.workdir],
    [f.requested, showText.requestedBy(record.requestedBy, record.createdAt)],
    [f.expires, record.expiresAt],
    [
      f.decided,
      record.decision && record.decidedBy && record.decidedAt
        ? showText.decidedBy(record.decision, record.decidedBy, record.decidedAt)
        : undefined,
    ],
    [f.reason, record.decisionReason],
    [f.failure, record.failure],
    [f.completed, record.completedAt],
    [f.checkpoint, record.checkpointId],
    [f.callHash, record.toolCallHash],
  ];
  const lines = rows
    .filter((row): row is [string, string] => row[1] !== undefined)
    .map(([name, value]) => `${name.padEnd(11)}${printable(value)}`);
  lines.push(`${f.reasons}:`);
  for (const reason of record.riskReasons.length > 0
    ? record.riskReasons
    : [approvalsText.noReason])
    lines.push(`  - ${printable(reason)}`);
  const files = Object.entries(record.preImage);
  if (files.length > 0) {
    lines.push(`${f.files}:`);
    for (const [path, hash] of files)
      lines.push(`  ${printable(path)}: ${showText.fileState(hash)}`);
  }
  lines.push(`${f.arguments}:`);
  for (const line of JSON.stringify(record.arguments, null, 2).split('\n'))
    lines.push(`  ${printable(line)}`);
  if (record.status === 'pending' && !expired) {
    lines.push('');
    for (const line of await previewCall(record, { ...options, maxLines: 400 })) lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}
