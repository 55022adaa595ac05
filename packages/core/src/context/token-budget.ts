import type { JsonObject, Message, ToolDefinition } from '../messages.js';
import { estimateTokens } from './token-estimate.js';

/**
 * English and code run at about four characters a token: the ratio that turns a budget in
 * characters into the token budget that goes with it.
 */
export const CHARS_PER_TOKEN = 4;

/** Bounds of the correction from reported usage: a provider's count is trusted only this far. */
const MIN_SCALE = 0.5;
const MAX_SCALE = 2;
/**
 * Below this estimate a request is mostly what the estimate cannot see (a provider's own framing
 * of messages and tools), so its reported usage says little about the tokenizer.
 */
const MIN_CALIBRATION_TOKENS = 1000;
/** What a provider adds around each message (role, separators), in tokens. */
const PER_MESSAGE_TOKENS = 4;

/** Longer contents are estimated from evenly spaced samples: the estimate of a message stays O(1). */
const SAMPLES = 8;
const SAMPLE_CHARS = 1024;

/**
 * Estimated tokens of a message's text. A long text (a 50 KB file page, a build log) is estimated
 * from eight evenly spaced 1 KB samples, scaled to its length: within about ±6 % of estimating the
 * whole text, at a fixed cost of 8 KB scanned, so a batch of large tool results adds well under a
 * millisecond to the step.
 *
 * @example
 * contentTokens('x'.repeat(100_000)); // the estimate of 8 KB of it, times 100,000 / 8,192
 */
export function contentTokens(text: string): number {
  if (text.length <= 2 * SAMPLES * SAMPLE_CHARS) return estimateTokens(text);
  const step = (text.length - SAMPLE_CHARS) / (SAMPLES - 1);
  let sampled = 0;
  for (let i = 0; i < SAMPLES; i += 1) {
    const start = Math.round(i * step);
    sampled += estimateTokens(text.slice(start, start + SAMPLE_CHARS));
  }
  return Math.round((sampled * text.length) / (SAMPLES * SAMPLE_CHARS));
}

interface Cached {
  length: number;
  tokens: number;
}

const messageCache = new WeakMap<Message, Cached>();
const schemaCache = new WeakMap<JsonObject, number>();

/**
 * Estimated tokens of what the model reads of one message: its content and its tool calls. A
 * message is estimated once and remembered (by identity, checked against its content length), so
 * that measuring the whole history on every step costs a lookup per message, not a pass over it.
 *
 * @example
 * messageTokens(msg.user('上下文压缩')); // 4
 */
export function messageTokens(message: Message): number {
  const cached = messageCache.get(message);
  if (cached && cached.length === message.content.length) return cached.tokens;
  let tokens = contentTokens(message.content);
  for (const call of message.toolCalls ?? []) {
    tokens += estimateTokens(call.name) + contentTokens(jsonText(call.arguments));
  }
  messageCache.set(message, { length: message.content.length, tokens });
  return tokens;
}

/**
 * Estimated tokens of the messages of a request (see {@link messageTokens}).
 *
 * @example
 * historyTokens(state.messages); // the sum of messageTokens over the messages
 */
export function historyTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += messageTokens(message);
  return total;
}

/**
 * Estimated tokens of a whole request as a provider counts it: the messages, what frames each of
 * them, and the offered tools' names, descriptions and parameter schemas.
 *
 * @example
 * requestTokens(messages, tools); // compare with the provider's reported input tokens
 */
export function requestTokens(
  messages: readonly Message[],
  tools: readonly ToolDefinition[],
): number {
  let total = historyTokens(messages) + PER_MESSAGE_TOKENS * messages.length;
  for (const tool of tools) {
    let schema = schemaCache.get(tool.parameters);
    if (schema === undefined) {
      schema = contentTokens(jsonText(tool.parameters));
      schemaCache.set(tool.parameters, schema);
    }
    total += schema + estimateTokens(tool.name) + contentTokens(tool.description);
  }
  return total;
}

/**
 * How far the estimate is off for the model in use, learnt from the input tokens providers
 * report: the estimate follows one tokenizer, and others count the same text differently (some by
 * a third more). Each reported count moves the scale halfway to the ratio it shows, within
 * ×0.5 to ×2; a request too small to say much leaves it as it is.
 *
 * @example
 * const calibration = new TokenCalibration();
 * calibration.observe(requestTokens(messages, tools), response.usage.inputTokens);
 * const tokens = historyTokens(messages) * calibration.scale;
 */
export class TokenCalibration {
  #scale = 1;
  #observed = false;

  /** The factor to multiply estimates by (1 until a usable count was reported). */
  get scale(): number {
    return this.#scale;
  }

  /** Learn from one request: `estimated` by {@link requestTokens}, `reported` by the provider. */
  observe(estimated: number, reported: number): void {
    if (!Number.isFinite(reported) || reported <= 0) return;
    if (!Number.isFinite(estimated) || estimated < MIN_CALIBRATION_TOKENS) return;
    const ratio = Math.min(MAX_SCALE, Math.max(MIN_SCALE, reported / estimated));
    this.#scale = this.#observed ? (this.#scale + ratio) / 2 : ratio;
    this.#observed = true;
  }
}

/** JSON of a value for counting; a value JSON cannot hold (a cycle, a bigint) counts as empty. */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
