import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeFrame, encodeFrame, FakeSocket, frameMessageId } from './long-connection.js';

/** Which open API endpoint a request reached. */
export type FakeFeishuEndpoint = 'token' | 'create' | 'reply' | 'patch' | 'ws-endpoint' | 'unknown';

/** A request the fake received, answered or not. */
export interface FakeFeishuRequest {
  endpoint: FakeFeishuEndpoint;
  method: string;
  /** The path without the query string. */
  path: string;
  query: Record<string, string>;
  /** Lower-cased names. */
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: unknown;
  /** The HTTP status the fake answered with. */
  status: number;
}

/** A message the app sent (created in a chat or as a reply), with every update made to it. */
export interface FakeFeishuMessage {
  kind: 'create' | 'reply';
  messageId: string;
  /** The chat it went to; for a reply, the chat of the replied message when the fake knows it. */
  chatId: string;
  /** The message it answers (replies only). */
  replyTo?: string;
  msgType: string;
  /** `content` parsed from its JSON string. */
  content: unknown;
  /** `content.text` of a text message. */
  text?: string;
  uuid?: string;
  /** Each `content` a patch replaced it with, parsed, oldest first. */
  updates: unknown[];
}

/** A scripted failure: the next request to `endpoint` (any endpoint when omitted) gets it. */
export interface FakeFeishuFailure {
  endpoint?: Exclude<FakeFeishuEndpoint, 'unknown'>;
  /** Only a message of this type (`text`, `interactive`, …) fails; other requests pass it by. */
  msgType?: string;
  status: number;
  /** Feishu's business code, e.g. 99991400 (rate limited) or 230001 (bad parameters). */
  code: number;
  msg?: string;
  /** E.g. `{ 'x-ogw-ratelimit-reset': '2' }`. */
  headers?: Record<string, string>;
}

/** A running fake of the Feishu open API on a loopback port. */
export interface FakeFeishuServer {
  /** `http://127.0.0.1:<port>`: the base URL to give the SDK client (`FEISHU_DOMAIN`). */
  url: string;
  /** Every request, in order. */
  requests: FakeFeishuRequest[];
  /** Every message sent (not counting requests the fake refused), in order. */
  messages: FakeFeishuMessage[];
  /** Script failures; each is used once, by the first request it matches. */
  fail(...failures: FakeFeishuFailure[]): void;
  /** Tell the fake which chat a message (an inbound one a test made up) belongs to. */
  knowMessage(messageId: string, chatId: string): void;
  /** Messages sent to or in reply to a message of `chatId`. */
  messagesIn(chatId: string): FakeFeishuMessage[];
  /**
   * Resolves as soon as `predicate` holds (checked now and after every request); rejects with a
   * summary of what arrived when it still does not hold after `timeoutMs` (default 10 s) or when
   * the server closes. Lets a test wait for a known outcome instead of a guessed delay.
   */
  waitFor(predicate: () => boolean, description?: string, timeoutMs?: number): Promise<void>;
  /**
   * Clients connected over the long connection (the SDK's WebSocket client), still open, that have
   * sent their first frame (so they listen for events).
   */
  connections(): number;
  /**
   * Deliver an event over the long connection, as Feishu does in that mode (plain JSON in a data
   * frame), to the most recent client; resolves with the client's answer: its status code and the
   * data it returned (a card callback's toast, say).
   */
  push(event: unknown): Promise<{ code: number; data: unknown }>;
  close(): Promise<void>;
}

/** Options of {@link startFakeFeishuServer}. */
export interface FakeFeishuOptions {
  /** Credentials the token endpoint accepts (default: any). */
  appId?: string;
  appSecret?: string;
  host?: string;
}

interface Waiter {
  predicate: () => boolean;
  resolve: () => void;
  reject: (error: Error) => void;
}

const OK = { code: 0, msg: 'success' };

/**
 * Start a loopback fake of the Feishu / Lark open API: the tenant access token, sending a message
 * to a chat, replying to a message and patching a card, each recorded; uuid-idempotent sends as
 * Feishu does; scripted failures (a 429 with `x-ogw-ratelimit-reset`, a 400 format error). Point
 * the real `@larksuiteoapi/node-sdk` client at `url` (its `domain` option).
 *
 * @example
 * const feishu = await startFakeFeishuServer({ appId: 'cli_test', appSecret: 'secret' });
 * feishu.fail({ endpoint: 'reply', status: 429, code: 99991400, headers: { 'x-ogw-ratelimit-reset': '2' } });
 * // … run the server under test with FEISHU_DOMAIN=feishu.url, then:
 * await feishu.waitFor(() => feishu.messages.some((m) => m.text === 'done'));
 * await feishu.close();
 */
export async function startFakeFeishuServer(
  options: FakeFeishuOptions = {},
): Promise<FakeFeishuServer> {
  const requests: FakeFeishuRequest[] = [];
  const messages: FakeFeishuMessage[] = [];
  const failures: FakeFeishuFailure[] = [];
  const chatOf = new Map<string, string>();
  const byUuid = new Map<string, FakeFeishuMessage>();
  const tokens = new Set<string>();
  const waiters = new Set<Waiter>();
  const sockets: FakeSocket[] = [];
  // A client counts as connected once it has sent its first frame (the SDK pings as soon as the
  // socket opens): before that it may not be listening for events yet.
  const spoken = new Set<FakeSocket>();
  const answers = new Map<string, (answer: { code: number; data: unknown }) => void>();
  let frameSeq = 0;
  let closed = false;
  let sequence = 0;

  const notify = () => {
    for (const waiter of waiters) {
      let done = false;
      try {
        done = waiter.predicate();
      } catch (error) {
        waiters.delete(waiter);
        waiter.reject(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (done) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  const takeFailure = (endpoint: FakeFeishuEndpoint, body: unknown) => {
    const msgType = isRecord(body) ? body.msg_type : undefined;
    const index = failures.findIndex(
      (f) =>
        (f.endpoint === undefined || f.endpoint === endpoint) &&
        (f.msgType === undefined || f.msgType === msgType),
    );
    return index < 0 ? undefined : failures.splice(index, 1)[0];
  };

  const record = (message: Omit<FakeFeishuMessage, 'updates' | 'messageId'>) => {
    sequence += 1;
    const stored: FakeFeishuMessage = {
      ...message,
      messageId: `om_fake_${sequence}_${randomBytes(4).toString('hex')}`,
      updates: [],
    };
    messages.push(stored);
    if (stored.chatId) chatOf.set(stored.messageId, stored.chatId);
    return stored;
  };

  const messageData = (message: FakeFeishuMessage) => ({
    message_id: message.messageId,
    root_id: message.replyTo ?? '',
    parent_id: message.replyTo ?? '',
    chat_id: message.chatId,
    msg_type: message.msgType,
    create_time: String(Date.now()),
    update_time: String(Date.now()),
    deleted: false,
    updated: message.updates.length > 0,
    sender: {
      id: options.appId ?? 'cli_fake_app',
      id_type: 'app_id',
      sender_type: 'app',
      tenant_key: 'fake-tenant',
    },
    body: { content: JSON.stringify(message.content) },
  });

  const route = (method: string, path: string): { endpoint: FakeFeishuEndpoint; id?: string } => {
    if (method === 'POST' && path === '/open-apis/auth/v3/tenant_access_token/internal') {
      return { endpoint: 'token' };
    }
    if (method === 'POST' && path === '/open-apis/im/v1/messages') return { endpoint: 'create' };
    if (method === 'POST' && path === '/callback/ws/endpoint') return { endpoint: 'ws-endpoint' };
    const reply = /^\/open-apis\/im\/v1\/messages\/([^/]+)\/reply$/.exec(path);
    if (method === 'POST' && reply)
      return { endpoint: 'reply', id: decodeURIComponent(reply[1] as string) };
    const patch = /^\/open-apis\/im\/v1\/messages\/([^/]+)$/.exec(path);
    if (method === 'PATCH' && patch)
      return { endpoint: 'patch', id: decodeURIComponent(patch[1] as string) };
    return { endpoint: 'unknown' };
  };

  const answer = (
    endpoint: FakeFeishuEndpoint,
    id: string | undefined,
    body: unknown,
    query: Record<string, string>,
    headers: Record<string, string>,
  ): { status: number; json: unknown; headers?: Record<string, string> } => {
    if (endpoint === 'unknown') {
      return { status: 404, json: { code: 404, msg: 'fake Feishu: unknown endpoint' } };
    }
    const failure = takeFailure(endpoint, body);
    if (failure) {
      return {
        status: failure.status,
        json: { code: failure.code, msg: failure.msg ?? `fake Feishu: scripted ${failure.code}` },
        ...(failure.headers ? { headers: failure.headers } : {}),
      };
    }
    const fields = isRecord(body) ? body : {};
    if (endpoint === 'ws-endpoint') {
      const wrongApp = options.appId !== undefined && fields.AppID !== options.appId;
      const wrongSecret = options.appSecret !== undefined && fields.AppSecret !== options.appSecret;
      if (wrongApp || wrongSecret)
        return { status: 200, json: { code: 1000040345, msg: 'invalid app' } };
      return {
        status: 200,
        json: {
          code: 0,
          msg: 'ok',
          data: {
            URL: `ws://${hostPort()}/ws?device_id=fake-device&service_id=1`,
            ClientConfig: {
              PingInterval: 120,
              ReconnectCount: -1,
              ReconnectInterval: 120,
              ReconnectNonce: 30,
            },
          },
        },
      };
    }
    if (endpoint === 'token') {
      const wrongApp = options.appId !== undefined && fields.app_id !== options.appId;
      const wrongSecret =
        options.appSecret !== undefined && fields.app_secret !== options.appSecret;
      if (wrongApp || wrongSecret)
        return { status: 200, json: { code: 10014, msg: 'app secret invalid' } };
      const token = `t-fake-${randomBytes(8).toString('hex')}`;
      tokens.add(token);
      return { status: 200, json: { ...OK, tenant_access_token: token, expire: 7200 } };
    }
    const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
    if (bearer === undefined || !tokens.has(bearer)) {
      return {
        status: 401,
        json: { code: 99991663, msg: 'Invalid access token for authorization.' },
      };
    }
    const content = typeof fields.content === 'string' ? parseJson(fields.content) : undefined;
    if (content === undefined) return badParam('content must be a JSON string');
    if (endpoint === 'patch') {
      const target = messages.find((m) => m.messageId === id);
      if (target?.msgType !== 'interactive')
        return badParam('only a card the app sent can be patched');
      target.updates.push(content);
      return { status: 200, json: { ...OK, data: {} } };
    }
    const msgType = fields.msg_type;
    if (typeof msgType !== 'string' || msgType === '') return badParam('msg_type is required');
    const uuid = typeof fields.uuid === 'string' && fields.uuid !== '' ? fields.uuid : undefined;
    const known = uuid === undefined ? undefined : byUuid.get(`${endpoint}:${uuid}`);
    if (known) return { status: 200, json: { ...OK, data: messageData(known) } };
    let stored: FakeFeishuMessage;
    const text =
      isRecord(content) && typeof content.text === 'string' ? { text: content.text } : {};
    if (endpoint === 'create') {
      if (query.receive_id_type !== 'chat_id' || typeof fields.receive_id !== 'string') {
        return badParam('receive_id_type=chat_id and receive_id are required');
      }
      stored = record({
        kind: 'create',
        chatId: fields.receive_id,
        msgType,
        content,
        ...text,
        ...(uuid ? { uuid } : {}),
      });
    } else {
      stored = record({
        kind: 'reply',
        chatId: chatOf.get(id as string) ?? '',
        replyTo: id as string,
        msgType,
        content,
        ...text,
        ...(uuid ? { uuid } : {}),
      });
    }
    if (uuid !== undefined) byUuid.set(`${endpoint}:${uuid}`, stored);
    return { status: 200, json: { ...OK, data: messageData(stored) } };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const headers = flattenHeaders(req);
    const query = Object.fromEntries(url.searchParams);
    const body = raw === '' ? undefined : (parseJson(raw) ?? raw);
    const { endpoint, id } = route(method, url.pathname);
    const result = answer(endpoint, id, body, query, headers);
    requests.push({
      endpoint,
      method,
      path: url.pathname,
      query,
      headers,
      body,
      status: result.status,
    });
    res.writeHead(result.status, { 'content-type': 'application/json', ...result.headers });
    res.end(JSON.stringify(result.json));
    notify();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 500, msg: `fake Feishu crashed: ${String(error)}` }));
    });
  });
  server.on('upgrade', (request, socket) => {
    if (!(request.url ?? '').startsWith('/ws')) {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    const connection = FakeSocket.accept(request, socket);
    if (!connection) return;
    connection.onMessage((bytes) => {
      let frame: ReturnType<typeof decodeFrame>;
      try {
        frame = decodeFrame(bytes);
      } catch {
        return;
      }
      const header = (key: string) => frame.headers.find((h) => h.key === key)?.value;
      if (!spoken.has(connection)) {
        spoken.add(connection);
        notify();
      }
      if (frame.method === 0 && header('type') === 'ping') {
        connection.send(
          encodeFrame({
            ...frame,
            headers: [{ key: 'type', value: 'pong' }],
            payload: Buffer.from('{}'),
          }),
        );
        return;
      }
      const id = header('message_id');
      const settle = id === undefined ? undefined : answers.get(id);
      if (!settle || !frame.payload) return;
      answers.delete(id as string);
      const reply = JSON.parse(Buffer.from(frame.payload).toString('utf8')) as {
        code: number;
        data?: string;
      };
      const data =
        reply.data === undefined
          ? undefined
          : JSON.parse(Buffer.from(reply.data, 'base64').toString('utf8'));
      settle({ code: reply.code, data });
    });
    sockets.push(connection);
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
  function hostPort(): string {
    return `${host}:${address.port}`;
  }

  const fake: FakeFeishuServer = {
    url: `http://${host}:${address.port}`,
    requests,
    messages,
    fail: (...list) => {
      failures.push(...list);
    },
    knowMessage: (messageId, chatId) => {
      chatOf.set(messageId, chatId);
    },
    messagesIn: (chatId) =>
      messages.filter(
        (m) => m.chatId === chatId || (m.replyTo !== undefined && chatOf.get(m.replyTo) === chatId),
      ),
    waitFor: (predicate, description = 'the expected requests', timeoutMs = 10_000) => {
      if (predicate()) return Promise.resolve();
      if (closed) return Promise.reject(new Error(`fake Feishu closed before ${description}`));
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(
              `fake Feishu: timed out waiting for ${description}; messages so far:\n${summary(messages)}`,
            ),
          );
        }, timeoutMs);
        const waiter: Waiter = {
          predicate,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        waiters.add(waiter);
      });
    },
    connections: () => sockets.filter((socket) => !socket.closed && spoken.has(socket)).length,
    push: (event) => {
      const socket = [...sockets]
        .reverse()
        .find((candidate) => !candidate.closed && spoken.has(candidate));
      if (!socket)
        return Promise.reject(
          new Error('fake Feishu: no client is connected over the long connection'),
        );
      const id = frameMessageId();
      frameSeq += 1;
      const answer = new Promise<{ code: number; data: unknown }>((resolve) =>
        answers.set(id, resolve),
      );
      socket.send(
        encodeFrame({
          seqId: frameSeq,
          logId: 0,
          service: 1,
          method: 1,
          headers: [
            { key: 'type', value: 'event' },
            { key: 'message_id', value: id },
            { key: 'sum', value: '1' },
            { key: 'seq', value: '0' },
            { key: 'trace_id', value: `trace_${id}` },
          ],
          payload: Buffer.from(JSON.stringify(event), 'utf8'),
        }),
      );
      return answer;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      for (const socket of sockets) socket.close();
      for (const waiter of waiters)
        waiter.reject(new Error('fake Feishu closed while a test was waiting'));
      waiters.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

function badParam(msg: string) {
  return { status: 400, json: { code: 230001, msg: `fake Feishu: ${msg}` } };
}

function summary(messages: readonly FakeFeishuMessage[]): string {
  if (messages.length === 0) return '  (none)';
  return messages
    .map((m) => {
      const what = m.text ?? JSON.stringify(m.content).slice(0, 200);
      return `  ${m.kind}${m.replyTo ? ` to ${m.replyTo}` : ''} in ${m.chatId || '?'}: ${what}`;
    })
    .join('\n');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
