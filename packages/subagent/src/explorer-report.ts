import { EXPLORER_LIMITS } from './limits.js';

/**
 * The report the parent gets back: a fixed header naming the child session and why it stopped,
 * then the body, cut to {@link EXPLORER_LIMITS}.reportMaxChars.
 *
 * @example
 * formatReport({ childSession: 'parent-x-explore-1', stopReason: 'final', body: 'port is set in a.ts:3' });
 * // '[Explorer Subagent Report]\nchild_session=parent-x-explore-1\nstop_reason=final\n\nport is set in a.ts:3'
 */
export function formatReport(report: {
  childSession: string;
  stopReason: string;
  body: string;
}): string {
  const text = [
    '[Explorer Subagent Report]',
    `child_session=${report.childSession}`,
    `stop_reason=${report.stopReason}`,
    '',
    report.body,
  ].join('\n');
  return capReport(text);
}

/**
 * A report longer than the limit keeps its beginning (the header and the start of the answer) and
 * its end (the conclusion), with a marker saying how long it was.
 *
 * @example
 * capReport('x'.repeat(10_000)).length; // 4000
 */
export function capReport(text: string, maxChars: number = EXPLORER_LIMITS.reportMaxChars): string {
  if (text.length <= maxChars) return text;
  const marker = `\n\n...[Explorer report truncated, original length ${text.length} chars]...\n\n`;
  const head = Math.min(EXPLORER_LIMITS.reportHeadChars, maxChars - marker.length);
  const tail = Math.max(0, maxChars - marker.length - head);
  return `${text.slice(0, head)}${marker}${tail > 0 ? text.slice(-tail) : ''}`;
}

/**
 * One observation as a clue for a "not found" report: the tool's name and the start of what it
 * answered.
 *
 * @example
 * clue('read', 'no such file: a.txt'); // 'tool=read\nno such file: a.txt'
 */
export function clue(tool: string, content: string): string {
  const cut =
    content.length > EXPLORER_LIMITS.clueChars
      ? `${content.slice(0, EXPLORER_LIMITS.clueChars)}\n...[tool observation truncated]...`
      : content;
  return `tool=${tool}\n${cut}`;
}
