import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ToolCall } from '@tiny-claw/core';
import { type ClaudeTurn, toUsage } from './response-mapping.js';
import { text } from './strings.js';
import { decodeToolInput, decodeToolInputJson } from './tool-input.js';

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; id: string; name: string; json: string; startInput: unknown; closed: boolean }
  | { kind: 'other' };

/**
 * Builds one turn from the raw events of a streamed Messages response. It only says the turn is
 * usable once `message_stop` arrived ({@link StreamAssembler.complete}); until then nothing it
 * holds may be acted on — a cut stream must never yield a tool call.
 *
 * Tool input is the `input_json_delta` text of each block, concatenated in order and parsed once
 * at the end. A block the stream never closed, or the last block of a turn stopped by
 * `max_tokens`, was truncated: its call gets an `argumentsError`.
 *
 * @example
 * const assembler = new StreamAssembler();
 * for (const event of events) { const delta = assembler.push(event); if (delta) print(delta); }
 * if (assembler.complete) return assembler.turn();
 */
export class StreamAssembler {
  readonly #blocks = new Map<number, Block>();
  #usage: Parameters<typeof toUsage>[0] = undefined;
  #stopReason: string | undefined;
  #model: string | undefined;
  #complete = false;

  /** True once `message_stop` was seen. */
  get complete(): boolean {
    return this.#complete;
  }

  /**
   * Apply one event; returns the text it adds to the answer, if any, for `onTextDelta`.
   *
   * @example
   * const delta = assembler.push(event);
   */
  push(event: RawMessageStreamEvent): string | undefined {
    switch (event.type) {
      case 'message_start':
        this.#model = event.message.model;
        this.#usage = { ...event.message.usage };
        return undefined;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') {
          this.#blocks.set(event.index, { kind: 'text', text: block.text });
          return block.text || undefined;
        }
        if (block.type === 'tool_use') {
          const tool = { id: block.id, name: block.name, json: '', startInput: block.input };
          this.#blocks.set(event.index, { kind: 'tool', ...tool, closed: false });
        } else {
          this.#blocks.set(event.index, { kind: 'other' });
        }
        return undefined;
      }
      case 'content_block_delta': {
        const block = this.#blocks.get(event.index);
        if (event.delta.type === 'text_delta' && block?.kind === 'text') {
          block.text += event.delta.text;
          return event.delta.text || undefined;
        }
        if (event.delta.type === 'input_json_delta' && block?.kind === 'tool') {
          block.json += event.delta.partial_json;
        }
        return undefined;
      }
      case 'content_block_stop': {
        const block = this.#blocks.get(event.index);
        if (block?.kind === 'tool') block.closed = true;
        return undefined;
      }
      case 'message_delta':
        if (event.delta.stop_reason) this.#stopReason = event.delta.stop_reason;
        // Delta usage is cumulative; fields it leaves null keep their message_start values.
        for (const [key, value] of Object.entries(event.usage ?? {})) {
          if (typeof value === 'number') this.#usage = { ...this.#usage, [key]: value };
        }
        return undefined;
      case 'message_stop':
        this.#complete = true;
        return undefined;
      default:
        return undefined;
    }
  }

  /**
   * The turn as assembled so far. Callers take it only when {@link complete} is true.
   *
   * @example
   * if (assembler.complete) return toLLMResponse(assembler.turn(), model);
   */
  turn(): ClaudeTurn {
    const indexes = [...this.#blocks.keys()].sort((a, b) => a - b);
    const lastIndex = indexes.at(-1);
    const parts: string[] = [];
    const toolCalls: ToolCall[] = [];
    for (const index of indexes) {
      const block = this.#blocks.get(index);
      if (block?.kind === 'text') parts.push(block.text);
      if (block?.kind !== 'tool') continue;
      const truncated = !block.closed || (this.#stopReason === 'max_tokens' && index === lastIndex);
      const decoded = truncated
        ? { arguments: {}, argumentsError: text.argumentsTruncated }
        : block.json === ''
          ? decodeToolInput(block.startInput ?? {})
          : decodeToolInputJson(block.json);
      toolCalls.push({ id: block.id, name: block.name, ...decoded });
    }
    const turn: ClaudeTurn = { text: parts.join(''), toolCalls };
    const usage = toUsage(this.#usage);
    if (usage) turn.usage = usage;
    if (this.#stopReason) turn.stopReason = this.#stopReason;
    if (this.#model) turn.model = this.#model;
    return turn;
  }
}
