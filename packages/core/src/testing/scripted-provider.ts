import { type JsonObject, msg, type ToolCall } from '../messages.js';
import type { CompleteOptions, LLMProvider, LLMRequest, LLMResponse } from '../provider.js';
import type { Script, ScriptedTurn } from './script.js';

/** What a scripted provider answers once every turn has been served. */
export const SCRIPT_EXHAUSTED_TEXT = '(script exhausted)';

/**
 * A provider that replays a script, one turn per call, then answers "(script exhausted)".
 * Every request it received is kept in `requests` so tests can inspect what the model was sent.
 *
 * @example
 * const provider = new ScriptedProvider({ turns: [{ text: 'hi' }] });
 */
export class ScriptedProvider implements LLMProvider {
  readonly name = 'scripted';
  readonly model = 'scripted';
  readonly requests: LLMRequest[] = [];
  #next = 0;

  constructor(private readonly script: Script) {}

  async complete(request: LLMRequest, options: CompleteOptions = {}): Promise<LLMResponse> {
    this.requests.push(request);
    const turnIndex = this.#next;
    const turn: ScriptedTurn = this.script.turns[turnIndex] ?? { text: SCRIPT_EXHAUSTED_TEXT };
    this.#next += 1;
    const text = turn.text ?? '';
    if (text) options.onTextDelta?.(text);
    const calls = (turn.tool_calls ?? []).map((call, i): ToolCall => {
      const id = call.id ?? `call_${turnIndex + 1}_${i + 1}`;
      const decoded = decodeArguments(call.arguments);
      return decoded.ok
        ? { id, name: call.name, arguments: decoded.value }
        : { id, name: call.name, arguments: {}, argumentsError: decoded.error };
    });
    const usage = turn.usage
      ? {
          inputTokens: turn.usage.input_tokens,
          outputTokens: turn.usage.output_tokens,
          totalTokens: turn.usage.input_tokens + turn.usage.output_tokens,
        }
      : undefined;
    return {
      message: msg.assistant(text, calls),
      provider: this.name,
      model: this.model,
      stopReason: calls.length > 0 ? 'tool_use' : 'end_turn',
      ...(usage ? { usage } : {}),
    };
  }
}

function decodeArguments(
  raw: JsonObject | string | undefined,
): { ok: true; value: JsonObject } | { ok: false; error: string } {
  if (raw === undefined) return { ok: true, value: {} };
  if (typeof raw !== 'string') return { ok: true, value: raw };
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { ok: true, value: value as JsonObject };
    }
    return { ok: false, error: `arguments must be a JSON object, got ${JSON.stringify(value)}` };
  } catch (error) {
    return { ok: false, error: `invalid JSON (${(error as Error).message}): ${raw.slice(0, 200)}` };
  }
}
