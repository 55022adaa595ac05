import type { RecordedRequest } from './server.js';

/** One tool call the fake model makes. */
export interface FakeToolCall {
  /** Default: `call_<n>` (OpenAI) / `toolu_<n>` (Anthropic), n counting tool calls served, from 1. */
  id?: string;
  name: string;
  /** An object is sent as JSON; a string is sent verbatim as raw JSON text (it may be invalid). */
  arguments: Record<string, unknown> | string;
}

/** Token counts reported for a turn (each API's own field names are derived from these). */
export interface FakeUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}

/** A normal assistant turn: answered as JSON or SSE depending on the request's `stream` flag. */
export interface FakeTurnStep {
  kind: 'turn';
  text?: string;
  toolCalls?: FakeToolCall[];
  /** Default `{ input: 0, output: 0 }`. */
  usage?: FakeUsage;
  /**
   * Overrides the derived finish/stop reason. The well-known values are translated to the asking
   * API (`length` ⇄ `max_tokens`, `tool_calls` ⇄ `tool_use`, `stop` ⇄ `end_turn`) so one script
   * serves both providers; anything else is sent verbatim.
   */
  finishReason?: string;
  /** Default: the request's `model`, else `fake-model`. */
  model?: string;
  /** Size (in code points) of each text / argument delta when streaming; default 8. */
  chunkSize?: number;
}

/** An HTTP error answer with the asking API's error body. */
export interface FakeErrorStep {
  kind: 'error';
  status: number;
  message?: string;
  /** OpenAI: `error.type` and `error.code`; Anthropic: `error.type`. Default derived from status. */
  errorType?: string;
  /** Extra response headers, e.g. `{ 'retry-after': '1' }`. */
  headers?: Record<string, string>;
}

/**
 * A stream cut short: sends the turn's first `afterEvents` SSE events (default: every event before
 * the one carrying the finish/stop reason), then destroys the socket so the terminal event
 * (`[DONE]` / `message_stop`) never arrives. A non-stream request gets its socket destroyed
 * before any response byte.
 */
export interface FakeCutStep {
  kind: 'cut';
  text?: string;
  toolCalls?: FakeToolCall[];
  afterEvents?: number;
  /** As for a turn: delta size in code points, default 8. */
  chunkSize?: number;
}

/**
 * A silent server, held until the test says otherwise rather than for a length of time. Stream
 * request: headers plus the first `afterEvents` (default 0) events of a turn with `text` (default
 * none), then nothing. Non-stream request: nothing at all (not even headers, so the client's own
 * timeout applies). The socket is destroyed once `until` settles; without `until`, the stall
 * lasts until the server closes.
 *
 * @example
 * let release!: () => void;
 * server.enqueue({ kind: 'stall', afterEvents: 1, until: new Promise<void>((r) => { release = r; }) });
 * // … assert what happens while the server is silent, then:
 * release();
 */
export interface FakeStallStep {
  kind: 'stall';
  afterEvents?: number;
  /**
   * Text of the turn whose first events are sent. A preamble that ends in a text delta lets a test
   * see (through its text callback) that the client has received everything sent before the
   * silence.
   */
  text?: string;
  until?: PromiseLike<unknown>;
}

/**
 * An error inside a 200 stream after `afterEvents` (default 1) events of an empty turn: Anthropic
 * `event: error`, OpenAI `data: {"error":{…}}`; the response then ends without a terminal event.
 * A non-stream request gets an HTTP error instead (529 for `overloaded_error`, else 500).
 */
export interface FakeSseErrorStep {
  kind: 'sse-error';
  afterEvents?: number;
  /** Default `overloaded_error`. */
  errorType?: string;
}

/** A verbatim response; `content-type` defaults to `application/json`. */
export interface FakeRawStep {
  kind: 'raw';
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/**
 * A turn worked out from the request it answers, so a test can prove the model only knows what it
 * was sent (for instance, that a file's content reached it through a tool result). A `reply` that
 * throws answers 500 with the error's message.
 *
 * @example
 * server.enqueue({ kind: 'reply', reply: (request) => ({ text: `saw: ${toolResults(request).at(-1)}` }) });
 */
export interface FakeReplyStep {
  kind: 'reply';
  reply(request: RecordedRequest): Omit<FakeTurnStep, 'kind'>;
}

/** One scripted answer of the fake LLM server. */
export type FakeStep =
  | FakeTurnStep
  | FakeReplyStep
  | FakeErrorStep
  | FakeCutStep
  | FakeStallStep
  | FakeSseErrorStep
  | FakeRawStep;

/**
 * The scripted-provider format (`TINY_CLAW_SCRIPT`), structurally; `@tiny-claw/core/testing`'s
 * `Script` fits it.
 */
export interface FakeScript {
  turns: Array<{
    text?: string;
    tool_calls?: Array<{ id?: string; name: string; arguments?: Record<string, unknown> | string }>;
    usage?: { input_tokens: number; output_tokens: number };
  }>;
}

/**
 * Convert a scripted-provider script into fake-server steps, one `turn` per scripted turn, so one
 * script drives both the in-process scripted provider and the real SDK providers.
 *
 * @example
 * server.enqueue(...fromScript({ turns: [{ tool_calls: [{ name: 'read', arguments: { path: 'a' } }] }, { text: 'done' }] }));
 */
export function fromScript(script: FakeScript): FakeStep[] {
  return script.turns.map((turn): FakeTurnStep => {
    const step: FakeTurnStep = { kind: 'turn' };
    if (turn.text !== undefined) step.text = turn.text;
    if (turn.tool_calls?.length) {
      step.toolCalls = turn.tool_calls.map((call) => {
        const converted: FakeToolCall = { name: call.name, arguments: call.arguments ?? {} };
        if (call.id !== undefined) converted.id = call.id;
        return converted;
      });
    }
    if (turn.usage) {
      step.usage = { input: turn.usage.input_tokens, output: turn.usage.output_tokens };
    }
    return step;
  });
}

/** A tool call with its id chosen and its arguments as the exact JSON text to send. */
export interface ResolvedToolCall {
  id: string;
  name: string;
  argumentsText: string;
  /** The caller's original arguments (an object, or the raw string). */
  arguments: Record<string, unknown> | string;
}

/** Everything a format needs to render one turn, already decided by the server. */
export interface ResolvedTurn {
  /** Response id (`chatcmpl-<n>` / `msg_<n>`). */
  id: string;
  model: string;
  text: string;
  toolCalls: ResolvedToolCall[];
  usage: FakeUsage;
  /** The caller's override, untranslated; each format maps it. */
  finishReason?: string;
  chunkSize: number;
}

/** Default delta size when streaming. */
export const DEFAULT_CHUNK_SIZE = 8;

/**
 * The JSON text sent for a tool call's arguments: objects are serialised, strings pass verbatim so
 * tests can send broken JSON.
 *
 * @example
 * argumentsText({ path: 'a' }); // '{"path":"a"}'
 */
export function argumentsText(args: Record<string, unknown> | string): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}

/**
 * Split `text` into pieces of at most `size` code points (never splitting a surrogate pair).
 *
 * @example
 * chunkText('abcdef', 4); // ['abcd', 'ef']
 */
export function chunkText(text: string, size: number): string[] {
  const points = Array.from(text);
  const step = Math.max(1, Math.floor(size));
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += step) pieces.push(points.slice(i, i + step).join(''));
  return pieces;
}
