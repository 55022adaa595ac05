import type { ApprovalRecord } from './approvals-args.js';
import { approvalsText } from './approvals-strings.js';
import { type DescribeShellCommand, previewCall } from './call-preview.js';
import { painter, printable } from './terminal-text.js';

/** How to render a request. */
export interface RequestViewOptions {
  color: boolean;
  describeShellCommand: DescribeShellCommand;
  /** The clock, for "expires in …". */
  now?: Date;
}

/**
 * A pending request as the person deciding it sees it in the terminal: the tool, each reason,
 * when it expires, and what the call would change (a diff, or the commands a shell command runs).
 * Everything from the model, the tools or the files is made safe to print.
 *
 * @example
 * process.stderr.write(await renderApprovalRequest(record, { color: true, describeShellCommand }));
 */
export async function renderApprovalRequest(
  record: ApprovalRecord,
  options: RequestViewOptions,
): Promise<string> {
  const paint = painter(options.color);
  const label = (text: string) => paint('dim', text.padEnd(9));
  const now = options.now ?? new Date();
  const left = Date.parse(record.expiresAt) - now.getTime();
  const reasons = record.riskReasons.length > 0 ? record.riskReasons : [approvalsText.noReason];
  const lines = [
    paint('yellow', approvalsText.requestHeader(printable(record.toolName), record.id)),
    ...reasons.map(
      (reason, i) => `  ${label(i === 0 ? approvalsText.requestReason : '')}${printable(reason)}`,
    ),
    `  ${label(approvalsText.requestExpires)}${record.expiresAt} (${approvalsText.expiresIn(left)})`,
    ...(await previewCall(record, options)).map((line) => `  ${line}`),
  ];
  return `${lines.join('\n')}\n`;
}
