import { msg } from '../messages.js';
import type { CompleteOptions, LLMProvider, LLMRequest, LLMResponse } from '../provider.js';

/** What echo says when there is nothing to echo. */
export const ECHO_READY_TEXT = 'Tiny Claw is ready.';

/**
 * A provider that answers with the last user message, or "Tiny Claw is ready." when there is none.
 * Never calls tools. It is what `auto` picks when no API key is configured.
 *
 * @example
 * const provider = new EchoProvider();
 */
export class EchoProvider implements LLMProvider {
  readonly name = 'echo';
  readonly model: string;

  constructor(options: { model?: string } = {}) {
    this.model = options.model ?? 'echo';
  }

  async complete(request: LLMRequest, options: CompleteOptions = {}): Promise<LLMResponse> {
    const lastUser = request.messages.findLast((m) => m.role === 'user');
    const text = lastUser?.content.trim() ? lastUser.content : ECHO_READY_TEXT;
    options.onTextDelta?.(text);
    return {
      message: msg.assistant(text),
      provider: this.name,
      model: this.model,
      stopReason: 'end_turn',
    };
  }
}
