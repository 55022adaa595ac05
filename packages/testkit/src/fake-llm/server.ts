import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  anthropicError,
  anthropicMessage,
  anthropicStream,
  anthropicStreamError,
} from './anthropic-format.js';
import { openaiCompletion, openaiError, openaiStream, openaiStreamError } from './openai-format.js';
import { encodeSse, type SseEvent, type StreamPlan } from './sse.js';
import {
  argumentsText,
  DEFAULT_CHUNK_SIZE,
  type FakeStep,
  type FakeToolCall,
  type FakeUsage,
  type ResolvedTurn,
} from './steps.js';

/** Which wire format a request spoke. */
export type FakeApi = 'openai' | 'anthropic';

/** A request the fake server received. */
export interface RecordedRequest {
  api: FakeApi;
  method: string;
  /** The request target as sent (path and query string). */
  path: string;
  /** Lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when the body is not valid JSON. */
  body: unknown;
  /** The body's `stream` flag was `true`. */
  stream: boolean;
}

/** A running fake LLM server on a loopback port. */
export interface FakeLlmServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `${url}/v1`, for `OPENAI_BASE_URL` / `new OpenAI({ baseURL })`. */
  openaiBaseUrl: string;
  /** `url`, for `ANTHROPIC_BASE_URL` / `new Anthropic({ baseURL })`. */
  anthropicBaseUrl: string;
  /** Queue answers; each request to either API takes the next one. */
  enqueue(...steps: FakeStep[]): void;
  /** Every request received, in order (unknown paths included). */
  requests: RecordedRequest[];
  /** Steps not yet served. */
  pending(): number;
  /**
   * Resolves once `count` requests have been received and answered as scripted (for a stall: its
   * headers and preamble are sent and the server is holding the response); rejects if the server
   * closes first. Lets a test act at a known point instead of after a guessed delay.
   */
  received(count: number): Promise<void>;
  /** Stop listening and destroy every open connection. */
  close(): Promise<void>;
}

/** Message of the 500 answered when a test scripted too few steps. */
export const NO_SCRIPTED_RESPONSE = 'fake LLM server: no scripted response left';

const ROUTES: Record<string, FakeApi> = {
  'POST /v1/chat/completions': 'openai',
  'POST /v1/messages': 'anthropic',
};

/** What differs between the two APIs once a step has been chosen. */
interface Dialect {
  toolIdPrefix: string;
  responseIdPrefix: string;
  json(turn: ResolvedTurn): unknown;
  stream(turn: ResolvedTurn, body: unknown): StreamPlan;
  error(status: number, message: string, errorType?: string): unknown;
  streamError(errorType: string, message: string): SseEvent;
  requestIdHeaders(id: string): Record<string, string>;
}

const DIALECTS: Record<FakeApi, Dialect> = {
  openai: {
    toolIdPrefix: 'call_',
    responseIdPrefix: 'chatcmpl-',
    json: openaiCompletion,
    stream: (turn, body) =>
      openaiStream(turn, {
        includeUsage: field(field(body, 'stream_options'), 'include_usage') === true,
      }),
    error: openaiError,
    streamError: openaiStreamError,
    requestIdHeaders: (id) => ({ 'x-request-id': id }),
  },
  anthropic: {
    toolIdPrefix: 'toolu_',
    responseIdPrefix: 'msg_',
    json: anthropicMessage,
    stream: (turn) => anthropicStream(turn),
    error: anthropicError,
    streamError: anthropicStreamError,
    requestIdHeaders: (id) => ({ 'request-id': id }),
  },
};

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** The step shapes that render as a turn's events. */
interface TurnLike {
  text?: string;
  toolCalls?: FakeToolCall[];
  usage?: FakeUsage;
  finishReason?: string;
  model?: string;
  chunkSize?: number;
}

/** Everything one request handler needs. */
interface Exchange {
  api: FakeApi;
  dialect: Dialect;
  body: unknown;
  stream: boolean;
  requestId: string;
  res: ServerResponse;
}

/**
 * Start a loopback server speaking the real OpenAI Chat Completions and Anthropic Messages wire
 * formats (JSON and SSE), answering each request with the next scripted step. Point the real SDK
 * clients at it to test providers and the CLI end to end.
 *
 * @example
 * const server = await startFakeLlmServer();
 * server.enqueue({ kind: 'turn', toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] }, { kind: 'turn', text: 'done' });
 * const client = new OpenAI({ apiKey: 'test', baseURL: server.openaiBaseUrl, maxRetries: 0 });
 * // … run the code under test, then:
 * expect(server.pending()).toBe(0);
 * await server.close();
 */
export async function startFakeLlmServer(options: { host?: string } = {}): Promise<FakeLlmServer> {
  const queue: FakeStep[] = [];
  const requests: RecordedRequest[] = [];
  const waiters = new Set<{ count: number; resolve: () => void; reject: (error: Error) => void }>();
  let answered = 0;
  let served = 0;
  let toolCalls = 0;

  const resolveTurn = (step: TurnLike, dialect: Dialect, body: unknown): ResolvedTurn => {
    const requested = field(body, 'model');
    const turn: ResolvedTurn = {
      id: `${dialect.responseIdPrefix}${served}`,
      model: step.model ?? (typeof requested === 'string' && requested ? requested : 'fake-model'),
      text: step.text ?? '',
      toolCalls: (step.toolCalls ?? []).map((call) => {
        toolCalls += 1;
        return {
          id: call.id ?? `${dialect.toolIdPrefix}${toolCalls}`,
          name: call.name,
          arguments: call.arguments,
          argumentsText: argumentsText(call.arguments),
        };
      }),
      usage: step.usage ?? { input: 0, output: 0 },
      chunkSize: step.chunkSize ?? DEFAULT_CHUNK_SIZE,
    };
    if (step.finishReason !== undefined) turn.finishReason = step.finishReason;
    return turn;
  };

  // The first `count` events of a turn (empty unless given text): the preamble of a stall or an
  // in-stream error.
  const preamble = (ex: Exchange, count: number, step: TurnLike = {}): SseEvent[] => {
    const { events } = ex.dialect.stream(resolveTurn(step, ex.dialect, ex.body), ex.body);
    return events.slice(0, clamp(count, events.length - 1));
  };

  const noteAnswered = (): void => {
    answered += 1;
    for (const waiter of waiters) {
      if (answered >= waiter.count) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  const serve = (step: FakeStep, ex: Exchange): void => {
    const { dialect, res } = ex;
    switch (step.kind) {
      case 'turn': {
        const turn = resolveTurn(step, dialect, ex.body);
        if (ex.stream) {
          startSse(res, ex);
          writeEvents(res, dialect.stream(turn, ex.body).events);
          res.end();
        } else {
          sendJson(res, 200, dialect.json(turn), ex);
        }
        return;
      }
      case 'reply': {
        const request = requests.at(-1);
        if (!request) throw new Error('fake LLM server: a reply step has no request to answer');
        serve({ ...step.reply(request), kind: 'turn' }, ex);
        return;
      }
      case 'error': {
        const message = step.message ?? `fake LLM server: scripted ${step.status} error`;
        const body = dialect.error(step.status, message, step.errorType);
        sendJson(res, step.status, body, ex, step.headers);
        return;
      }
      case 'raw': {
        const headers: Record<string, string> = { ...dialect.requestIdHeaders(ex.requestId) };
        const hasType = Object.keys(step.headers ?? {}).some(
          (name) => name.toLowerCase() === 'content-type',
        );
        if (!hasType) headers['content-type'] = 'application/json';
        res.writeHead(step.status, { ...headers, ...step.headers });
        res.end(step.body);
        return;
      }
      case 'cut': {
        if (!ex.stream) {
          res.socket?.destroy();
          return;
        }
        const plan = dialect.stream(resolveTurn(step, dialect, ex.body), ex.body);
        const count = clamp(step.afterEvents ?? plan.openEvents, plan.events.length - 1);
        startSse(res, ex);
        writeEvents(res, plan.events.slice(0, count));
        // end() flushes what was written, then closes: the client sees the body stop without the
        // chunked terminator or the API's terminal event.
        res.socket?.end();
        return;
      }
      case 'stall': {
        if (ex.stream) {
          startSse(res, ex);
          const text = step.text === undefined ? {} : { text: step.text };
          writeEvents(res, preamble(ex, step.afterEvents ?? 0, text));
        }
        const end = () => res.socket?.destroy();
        step.until?.then(end, end);
        return;
      }
      case 'sse-error': {
        const errorType = step.errorType ?? 'overloaded_error';
        const message = `fake LLM server: scripted ${errorType} in stream`;
        if (ex.stream) {
          startSse(res, ex);
          writeEvents(res, [
            ...preamble(ex, step.afterEvents ?? 1),
            dialect.streamError(errorType, message),
          ]);
          res.end();
        } else {
          const status = errorType === 'overloaded_error' ? 529 : 500;
          sendJson(res, status, dialect.error(status, message, errorType), ex);
        }
        return;
      }
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const body = parseJson(raw);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const route = ROUTES[`${method} ${new URL(path, 'http://fake').pathname}`];
    const headers = flattenHeaders(req);
    const api = route ?? guessApi(headers);
    const stream = field(body, 'stream') === true;
    requests.push({ api, method, path, headers, body, stream });
    const ex: Exchange = {
      api,
      dialect: DIALECTS[api],
      body,
      stream,
      requestId: `req_fake_${requests.length}`,
      res,
    };
    // Neither a wrong path nor an exhausted script is worth retrying: fail the test fast.
    const noRetry = { 'x-should-retry': 'false' };
    const step = route ? queue.shift() : undefined;
    if (!route) {
      const message = `fake LLM server: unknown path ${method} ${path}`;
      sendJson(res, 404, ex.dialect.error(404, message), ex, noRetry);
    } else if (!step) {
      const message = `${NO_SCRIPTED_RESPONSE} (request #${requests.length}: ${method} ${path})`;
      sendJson(res, 500, ex.dialect.error(500, message), ex, noRetry);
    } else {
      served += 1;
      serve(step, ex);
    }
    noteAnswered();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the fake must surface in the test, not hang it.
      if (res.headersSent) res.socket?.destroy();
      else sendJson(res, 500, { error: { message: `fake LLM server crashed: ${String(error)}` } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  let closing: Promise<void> | undefined;

  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    requests,
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    pending: () => queue.length,
    received: (count) => {
      if (answered >= count) return Promise.resolve();
      if (closing) return Promise.reject(new Error(closedEarly(count, answered)));
      return new Promise<void>((resolve, reject) => {
        waiters.add({ count, resolve, reject });
      });
    },
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const waiter of waiters) waiter.reject(new Error(closedEarly(waiter.count, answered)));
        waiters.clear();
        server.close(() => resolve());
        // Keep-alive and stalled connections would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function closedEarly(count: number, answered: number): string {
  return `fake LLM server: closed after ${answered} of the ${count} requests a test waited for`;
}

function clamp(count: number, max: number): number {
  return Math.max(0, Math.min(Math.floor(count), max));
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  ex?: Exchange,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(ex ? ex.dialect.requestIdHeaders(ex.requestId) : {}),
    ...headers,
  });
  res.end(text);
}

function startSse(res: ServerResponse, ex: Exchange): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...ex.dialect.requestIdHeaders(ex.requestId),
  });
  // Send the headers now: a stall with no events must still look like an open stream.
  res.flushHeaders();
}

function writeEvents(res: ServerResponse, events: SseEvent[]): void {
  for (const event of events) res.write(encodeSse(event));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined)
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

// An unknown path still gets an error body in the shape its client expects.
function guessApi(headers: Record<string, string>): FakeApi {
  return headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined
    ? 'anthropic'
    : 'openai';
}
