import type { LLMUsage } from '@tiny-claw/core';
import {
  buildToolCalls,
  type MappedTurn,
  messageText,
  type RawToolCall,
  toUsage,
} from './response-mapping.js';
import type { WireCompletion, WireToolCall } from './wire-types.js';

interface PartialCall {
  id: string | undefined;
  name: string | undefined;
  /** Concatenated string fragments. */
  text: string;
  /** Set when a server sent the arguments as an object instead of a string. */
  object: unknown;
}

/**
 * Folds `chat.completion.chunk`s into one turn: text in order, tool-call fragments joined by
 * `index`, usage from the (usually last) usage chunk, and the finish reason. Only a stream that
 * delivered a finish reason is {@link ChatStreamAssembler.complete}; the caller must never use
 * tool calls from one that is not.
 *
 * @example
 * const assembler = new ChatStreamAssembler();
 * for await (const chunk of stream) { const delta = assembler.push(chunk); if (delta) onTextDelta(delta); }
 * if (assembler.complete) return assembler.result();
 */
export class ChatStreamAssembler {
  #text = '';
  readonly #calls: PartialCall[] = [];
  readonly #byIndex = new Map<number, PartialCall>();
  #usage: LLMUsage | undefined;
  #finishReason: string | undefined;
  #model: string | undefined;
  #refusal = '';

  /** True once a chunk carried a finish reason. */
  get complete(): boolean {
    return this.#finishReason !== undefined;
  }

  /** Fold one chunk in; returns the text it added, if any. */
  push(chunk: WireCompletion): string | undefined {
    if (typeof chunk.model === 'string' && chunk.model !== '') this.#model = chunk.model;
    const usage = toUsage(chunk.usage);
    if (usage) this.#usage = usage;
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!choice) return undefined;
    const delta = choice.delta ?? choice.message ?? undefined;
    let added: string | undefined;
    if (delta) {
      if (typeof delta.content === 'string') {
        added = delta.content === '' ? undefined : delta.content;
      } else if (delta.content != null) {
        const parts = messageText({ content: delta.content });
        added = parts === '' ? undefined : parts;
      }
      if (added !== undefined) this.#text += added;
      if (typeof delta.refusal === 'string') this.#refusal += delta.refusal;
      if (Array.isArray(delta.tool_calls)) {
        for (const fragment of delta.tool_calls) this.#merge(fragment);
      }
    }
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
      this.#finishReason = choice.finish_reason;
    }
    return added;
  }

  #merge(fragment: WireToolCall | null | undefined): void {
    if (!fragment || typeof fragment !== 'object') return;
    const call = this.#target(fragment);
    if (typeof fragment.id === 'string' && fragment.id !== '' && call.id === undefined) {
      call.id = fragment.id;
    }
    const name = fragment.function?.name;
    // Some servers repeat the name on every fragment; it is never split, so keep the first.
    if (typeof name === 'string' && name !== '' && call.name === undefined) call.name = name;
    const args = fragment.function?.arguments;
    if (typeof args === 'string') call.text += args;
    else if (args !== undefined && args !== null) call.object = args;
  }

  /** The call a fragment belongs to: by `index`, else by a new `id`, else the latest one. */
  #target(fragment: WireToolCall): PartialCall {
    if (typeof fragment.index === 'number') {
      const existing = this.#byIndex.get(fragment.index);
      if (existing) return existing;
      const created = this.#create();
      this.#byIndex.set(fragment.index, created);
      return created;
    }
    const last = this.#calls.at(-1);
    const id = typeof fragment.id === 'string' && fragment.id !== '' ? fragment.id : undefined;
    if (last && (id === undefined || last.id === undefined || last.id === id)) return last;
    return this.#calls.find((call) => call.id === id) ?? this.#create();
  }

  #create(): PartialCall {
    const call: PartialCall = { id: undefined, name: undefined, text: '', object: undefined };
    this.#calls.push(call);
    return call;
  }

  /** The assembled turn. Call only when {@link complete}. */
  result(): MappedTurn {
    const raw: RawToolCall[] = this.#calls.map((call) => ({
      id: call.id,
      name: call.name,
      arguments: call.text === '' && call.object !== undefined ? call.object : call.text,
    }));
    return {
      text: this.#text !== '' ? this.#text : this.#refusal,
      toolCalls: buildToolCalls(raw, this.#finishReason === 'length'),
      usage: this.#usage,
      stopReason: this.#finishReason,
      model: this.#model,
    };
  }
}
