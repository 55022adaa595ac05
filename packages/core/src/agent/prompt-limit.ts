import { InputError } from '../errors.js';
import { agentText } from './strings.js';

/**
 * The largest prompt a run accepts, in UTF-8 bytes (1 MiB). A prompt is an instruction, not a
 * data channel: anything bigger belongs in a file the agent reads in pages, and accepting it
 * would mean sending it whole on every model call and keeping it in memory and traces.
 *
 * @example
 * if (Buffer.byteLength(prompt, 'utf8') > MAX_PROMPT_BYTES) console.error('too long');
 */
export const MAX_PROMPT_BYTES = 1024 * 1024;

/**
 * A prompt over {@link MAX_PROMPT_BYTES}: refused before anything is sent or stored.
 *
 * @example
 * if (error instanceof PromptTooLargeError) console.error(`${error.bytes} bytes is too long`);
 */
export class PromptTooLargeError extends InputError {
  /** The prompt's size in UTF-8 bytes, or a lower bound of it when `atLeast` is set. */
  readonly bytes: number;
  readonly limitBytes: number;

  /**
   * @param bytes - The size, or (with `atLeast`) how much was read before reading stopped.
   * @param options - `atLeast`: the input was not read to its end, so `bytes` is a lower bound.
   */
  constructor(bytes: number, options: { atLeast?: boolean } = {}) {
    super(agentText.promptTooLarge(bytes, MAX_PROMPT_BYTES, options.atLeast === true));
    this.bytes = bytes;
    this.limitBytes = MAX_PROMPT_BYTES;
  }
}

/**
 * Refuse a prompt over {@link MAX_PROMPT_BYTES} UTF-8 bytes. A character is at most 3 bytes per
 * UTF-16 unit, so most prompts are settled by their length without counting bytes.
 *
 * @throws PromptTooLargeError when the prompt is over the limit.
 *
 * @example
 * assertPromptSize('fix the test'); // returns
 */
export function assertPromptSize(prompt: string): void {
  if (prompt.length * 3 <= MAX_PROMPT_BYTES) return;
  const bytes = Buffer.byteLength(prompt, 'utf8');
  if (bytes > MAX_PROMPT_BYTES) throw new PromptTooLargeError(bytes);
}
