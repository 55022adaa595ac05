import type { Message } from '../messages.js';
import { CHARS_PER_TOKEN, historyTokens, messageTokens } from './token-budget.js';

/** How hard to compact: `aggressive` is the one-shot level used after a context-length error. */
export type CompactionLevel = 'normal' | 'aggressive';

/** Budget and retention of the request-time compactor. */
export interface CompactionOptions {
  /** Total characters of message content the request should stay under (default 120,000). */
  maxChars: number;
  /**
   * Estimated tokens of the messages (content and tool calls) the request should stay under.
   * Default: `maxChars` ÷ 4. English and code run at about four characters a token, so for them
   * the character budget keeps its meaning, while text that costs a token for nearly every
   * character (Chinese, Japanese, Korean) is compacted before it overflows the model's window.
   */
  maxTokens?: number;
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
  /** Estimated tokens before and after, and the token budget (estimates times `tokenScale`). */
  originalTokens: number;
  compactedTokens: number;
  maxTokens: number;
  /** The correction applied to the estimate, learnt from reported usage (1: none learnt yet). */
  tokenScale: number;
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
 * whole; a closing note of the tool (declared as the result's `footerChars`, or a trailing
 * block of bracketed lines) is dropped, since it would no longer be true. System, user and
 * assistant messages are never changed. Returns the original array when nothing had to change.
 *
 * When the latest batch alone exceeds the budget the request is sent over budget
 * (`report.overBudget`); a provider that rejects it as too long gets one aggressive retry, which
 * also keeps the latest batch whole.
 *
 * The budget is two limits, and the request is compacted when it passes either: characters
 * (`maxChars`, the `TINY_CLAW_CONTEXT_MAX_CHARS` setting, kept as the unit people set) and
 * estimated tokens (`maxTokens`, by default `maxChars` ÷ 4). Tokens are what a model's window
 * holds: for English and code the two limits agree, but Chinese costs about one token per
 * character, four times what its length suggests. The estimate is `estimateTokens` (a class
 * count calibrated on one tokenizer), multiplied by `tokenScale`, which the loop learns from the
 * input tokens providers report. Each message's estimate is computed once and remembered, so the
 * check costs a lookup per message.
 *
 * @example
 * const { messages, report } = compactForRequest(history, { maxChars: 120_000, retainLastMessages: 8 });
 */
export function compactForRequest(
  history: readonly Message[],
  options: CompactionOptions,
  level: CompactionLevel = 'normal',
  tokenScale = 1,
): { messages: readonly Message[]; report: CompactionReport } {
  const originalChars = totalChars(history);
  const aggressive = level === 'aggressive';
  const maxChars = aggressive ? Math.floor(options.maxChars / 2) : options.maxChars;
  const given = options.maxTokens;
  const tokenBudget =
    given !== undefined && Number.isInteger(given) && given > 0
      ? given
      : Math.ceil(options.maxChars / CHARS_PER_TOKEN);
  const maxTokens = aggressive ? Math.floor(tokenBudget / 2) : tokenBudget;
  const scale = Number.isFinite(tokenScale) && tokenScale > 0 ? tokenScale : 1;
  const rawTokens = historyTokens(history);
  const originalTokens = Math.round(rawTokens * scale);
  const latestBatch = latestBatchStart(history);
  const report: CompactionReport = {
    level,
    changed: false,
    originalChars,
    compactedChars: originalChars,
    maxChars,
    originalTokens,
    compactedTokens: originalTokens,
    maxTokens,
    tokenScale: scale,
    maskedToolResults: 0,
    truncatedToolResults: 0,
    protectedToolResults: 0,
    overBudget: originalChars > maxChars || originalTokens > maxTokens,
  };
  if (!aggressive && !report.overBudget) return { messages: history, report };

  const retain = aggressive ? Math.min(2, options.retainLastMessages) : options.retainLastMessages;
  const head = aggressive ? Math.min(1000, options.headChars ?? 2000) : (options.headChars ?? 2000);
  const tail = aggressive ? Math.min(1000, options.tailChars ?? 2000) : (options.tailChars ?? 2000);
  const firstRetained = history.length - retain;
  let compactedChars = originalChars;
  let compactedRawTokens = rawTokens;
  const messages = history.map((message, index) => {
    if (message.role !== 'tool') return message;
    if (index >= latestBatch) {
      report.protectedToolResults += 1;
      return message;
    }
    let replaced: Message | undefined;
    if (index < firstRetained) {
      replaced = shortened(message, 'mask', 0, 0);
      report.maskedToolResults += 1;
    } else if (message.content.length > head + tail + CUT_OVERHEAD) {
      replaced = shortened(message, 'cut', head, tail);
      report.truncatedToolResults += 1;
    }
    if (replaced === undefined) return message;
    compactedChars += replaced.content.length - message.content.length;
    compactedRawTokens += messageTokens(replaced) - messageTokens(message);
    return replaced;
  });
  report.changed = report.maskedToolResults + report.truncatedToolResults > 0;
  report.compactedChars = compactedChars;
  report.compactedTokens = Math.round(compactedRawTokens * scale);
  report.overBudget = compactedChars > maxChars || report.compactedTokens > maxTokens;
  return { messages: report.changed ? messages : history, report };
}

/** Index of the first message after the last assistant message: where the unseen results start. */
function latestBatchStart(history: readonly Message[]): number {
  for (let i = history.length - 1; i >= 0; i -= 1) {
    if (history[i]?.role === 'assistant') return i + 1;
  }
  return 0;
}

interface Shortened {
  how: 'mask' | 'cut';
  head: number;
  tail: number;
  length: number;
  message: Message;
}
const shortenedCache = new WeakMap<Message, Shortened>();

/**
 * The masked or cut copy of a tool result, made once per message and handed out again on later
 * requests: the same copy each time, so its token estimate is remembered too (see messageTokens).
 */
function shortened(message: Message, how: 'mask' | 'cut', head: number, tail: number): Message {
  const cached = shortenedCache.get(message);
  const { length } = message.content;
  if (
    cached?.how === how &&
    cached.head === head &&
    cached.tail === tail &&
    cached.length === length
  ) {
    return cached.message;
  }
  const content = how === 'mask' ? maskText(message.name, length) : cutMiddle(message, head, tail);
  const copy = { ...message, content };
  shortenedCache.set(message, { how, head, tail, length, message: copy });
  return copy;
}

/** Head and tail of the result's body around a gap marker, then a note that replaces its footer. */
function cutMiddle(message: Message, head: number, tail: number): string {
  const { content } = message;
  const note = closingNoteLength(content, message.footerChars);
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
function closingNoteLength(content: string, declared: number | undefined): number {
  if (declared !== undefined && Number.isInteger(declared) && declared > 0) {
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
