import type { Message } from '../messages.js';

/** How hard to compact: `aggressive` is the one-shot level used after a context-length error. */
export type CompactionLevel = 'normal' | 'aggressive';

/** Budget and retention of the request-time compactor. */
export interface CompactionOptions {
  /** Total characters of message content the request should stay under (default 120,000). */
  maxChars: number;
  /** The last N messages keep their tool results (head/tail-trimmed when long) (default 8). */
  retainLastMessages: number;
  /** Characters kept from the start and the end of a long recent tool result (default 2,000 each). */
  headChars?: number;
  tailChars?: number;
}

/** What one compaction did, for logs and the trace. */
export interface CompactionReport {
  level: CompactionLevel;
  changed: boolean;
  originalChars: number;
  compactedChars: number;
  maxChars: number;
  maskedToolResults: number;
  truncatedToolResults: number;
  overBudget: boolean;
}

export const DEFAULT_COMPACTION: CompactionOptions = { maxChars: 120_000, retainLastMessages: 8 };

const maskText = (name: string | undefined, length: number) =>
  `[Earlier tool output removed to save context. Tool: ${name ?? 'unknown'}. Original length: ${length} chars.]`;
const cutMarker = (length: number) =>
  `\n\n...[middle of the output cut; original length ${length} chars]...\n\n`;

/**
 * Shrink a conversation for one request without touching the stored history: old tool results are
 * replaced by a one-line note, recent long ones keep their head and tail. System, user and
 * assistant messages are never changed. Returns the original array when nothing had to change.
 *
 * @example
 * const { messages, report } = compactForRequest(history, { maxChars: 120_000, retainLastMessages: 8 });
 */
export function compactForRequest(
  history: readonly Message[],
  options: CompactionOptions,
  level: CompactionLevel = 'normal',
): { messages: readonly Message[]; report: CompactionReport } {
  const originalChars = totalChars(history);
  const aggressive = level === 'aggressive';
  const maxChars = aggressive ? Math.floor(options.maxChars / 2) : options.maxChars;
  const report: CompactionReport = {
    level,
    changed: false,
    originalChars,
    compactedChars: originalChars,
    maxChars,
    maskedToolResults: 0,
    truncatedToolResults: 0,
    overBudget: originalChars > maxChars,
  };
  if (!aggressive && originalChars <= maxChars) return { messages: history, report };

  const retain = aggressive ? Math.min(2, options.retainLastMessages) : options.retainLastMessages;
  const head = aggressive ? Math.min(1000, options.headChars ?? 2000) : (options.headChars ?? 2000);
  const tail = aggressive ? Math.min(1000, options.tailChars ?? 2000) : (options.tailChars ?? 2000);
  const firstRetained = history.length - retain;
  let compactedChars = originalChars;
  const messages = history.map((message, index) => {
    if (message.role !== 'tool') return message;
    const length = message.content.length;
    let content: string | undefined;
    if (index < firstRetained) {
      content = maskText(message.name, length);
      report.maskedToolResults += 1;
    } else if (length > head + tail + 100) {
      content = message.content.slice(0, head) + cutMarker(length) + message.content.slice(-tail);
      report.truncatedToolResults += 1;
    }
    if (content === undefined) return message;
    compactedChars += content.length - length;
    return { ...message, content };
  });
  report.changed = report.maskedToolResults + report.truncatedToolResults > 0;
  report.compactedChars = compactedChars;
  report.overBudget = compactedChars > maxChars;
  return { messages: report.changed ? messages : history, report };
}

function totalChars(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += message.content.length;
  return total;
}
