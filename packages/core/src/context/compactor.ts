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
  /**
   * Results of the latest tool batch, kept whole: the model has not seen them yet. When they
   * alone keep the request over budget, `overBudget` stays true and the request goes out as it is.
   */
  protectedToolResults: number;
  overBudget: boolean;
}

export const DEFAULT_COMPACTION: CompactionOptions = { maxChars: 120_000, retainLastMessages: 8 };

/**
 * The metadata key through which a tool tells the compactor how many characters at the end of
 * its content are a closing note about the whole output (the range shown, where to continue).
 * Such a note is true only of the whole output, so a compactor that cuts the middle drops it.
 *
 * @example
 * return { content: `${lines}\n\n${footer}`, metadata: { [FOOTER_CHARS_KEY]: footer.length + 2 } };
 */
export const FOOTER_CHARS_KEY = 'footer_chars';

const maskText = (name: string | undefined, length: number) =>
  `[Earlier tool output removed to save context. Tool: ${name ?? 'unknown'}. Original length: ${length} chars. Re-run the call if you need it again.]`;
const gapMarker = (omitted: number) =>
  `\n\n[… ${omitted} characters left out here by Tiny Claw to save context …]\n\n`;
const cutFooter = (length: number, droppedNote: boolean) =>
  `\n\n[Tiny Claw shortened this earlier tool result (originally ${length} characters) to save context: its middle was left out${droppedNote ? ", and so was the tool's closing note, which described the whole result (such as where to continue)" : ''}. What is shown is not the complete result: re-run the same call to see all of it.]`;

// Room the two notes of a cut take; a result is cut only when that saves something.
const CUT_OVERHEAD = 400;

/**
 * Shrink a conversation for one request without touching the stored history. The results of the
 * latest tool batch (the tool messages after the last assistant message) are never changed: the
 * model has not seen them yet, and the tools' own output caps bound them. Older results are
 * replaced by a one-line note, or, among the last `retainLastMessages` messages, keep their head
 * and tail around a marker and end with a note saying the result was shortened and how to see it
 * whole; a closing note of the tool (declared through {@link FOOTER_CHARS_KEY}, or a trailing
 * block of bracketed lines) is dropped, since it would no longer be true. System, user and
 * assistant messages are never changed. Returns the original array when nothing had to change.
 *
 * When the latest batch alone exceeds the budget the request is sent over budget
 * (`report.overBudget`); a provider that rejects it as too long gets one aggressive retry, which
 * also keeps the latest batch whole.
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
  const latestBatch = latestBatchStart(history);
  const report: CompactionReport = {
    level,
    changed: false,
    originalChars,
    compactedChars: originalChars,
    maxChars,
    maskedToolResults: 0,
    truncatedToolResults: 0,
    protectedToolResults: 0,
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
    if (index >= latestBatch) {
      report.protectedToolResults += 1;
      return message;
    }
    const length = message.content.length;
    let content: string | undefined;
    if (index < firstRetained) {
      content = maskText(message.name, length);
      report.maskedToolResults += 1;
    } else if (length > head + tail + CUT_OVERHEAD) {
      content = cutMiddle(message, head, tail);
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

/** Index of the first message after the last assistant message: where the unseen results start. */
function latestBatchStart(history: readonly Message[]): number {
  for (let i = history.length - 1; i >= 0; i -= 1) {
    if (history[i]?.role === 'assistant') return i + 1;
  }
  return 0;
}

/** Head and tail of the result's body around a gap marker, then a note that replaces its footer. */
function cutMiddle(message: Message, head: number, tail: number): string {
  const { content } = message;
  const note = closingNoteLength(content, message.metadata?.[FOOTER_CHARS_KEY]);
  const body = content.slice(0, content.length - note);
  const kept = Math.min(tail, Math.max(0, body.length - head));
  const omitted = body.length - head - kept;
  const parts = [body.slice(0, head)];
  if (omitted > 0) parts.push(gapMarker(omitted));
  if (kept > 0) parts.push(body.slice(body.length - kept));
  parts.push(cutFooter(content.length, note > 0));
  return parts.join('');
}

// Bounds of the fallback below: a closing note is short, and only a few are stacked.
const MAX_NOTE_CHARS = 1000;
const MAX_NOTES = 4;

/**
 * How many characters at the end of `content` are the tool's closing note. The tool's own
 * declaration wins; without one, a trailing block of paragraphs made only of bracketed lines
 * (`[showing lines …]`, `[note: …]`) counts as the note — a convention of form, never of
 * wording, which no tool name or phrase enters.
 */
function closingNoteLength(content: string, declared: unknown): number {
  if (typeof declared === 'number' && Number.isInteger(declared) && declared > 0) {
    return Math.min(declared, content.length);
  }
  let start = content.length;
  for (let notes = 0; notes < MAX_NOTES && start > 0; notes += 1) {
    const at = content.lastIndexOf('\n\n', start - 1);
    if (at === -1) break;
    const paragraph = content.slice(at + 2, start).replace(/\n+$/, '');
    if (paragraph.length === 0 || paragraph.length > MAX_NOTE_CHARS) break;
    if (!paragraph.split('\n').every((line) => line.startsWith('[') && line.endsWith(']'))) break;
    start = at;
  }
  return content.length - start;
}

function totalChars(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += message.content.length;
  return total;
}
