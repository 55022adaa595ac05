import type { LLMProvider, LLMRequest, LLMResponse, LogFields, Logger } from '@tiny-claw/core';
import {
  createTempWorkspace,
  type FakeFeishuServer,
  type FeishuRequestOptions,
  feishuMessageEvent,
  feishuRequest,
  startFakeFeishuServer,
  type TempWorkspace,
} from '@tiny-claw/testkit';
import type { HttpLimits } from '../http/http-limits.js';
import { loadServerSettings } from '../server/load-server-settings.js';
import { type RunningServer, startServer } from '../server/start-server.js';

export const APP_ID = 'cli_a1b2c3d4e5f60718';
export const APP_SECRET = 'app-secret-Zq8v2LkP9wXr4TnB';
export const ENCRYPT_KEY = 'encrypt-key-Hy7mQ3sVd1KpR6Wf';
export const VERIFICATION_TOKEN = 'verification-token-Bn5Tx2Lq8Zc4';
export const EVENT_PATH = '/api/events/feishu';

/** One call of a {@link memoryLogger}. */
export interface LoggedRecord {
  level: string;
  message: string;
  fields: LogFields;
}

/**
 * A logger keeping every line, to check what the server writes (and never writes): `lines` as
 * `<level> <message>`, `records` with their fields.
 */
export function memoryLogger(): Logger & { lines: string[]; records: LoggedRecord[] } {
  const lines: string[] = [];
  const records: LoggedRecord[] = [];
  const add = (level: string) => (message: string, fields: LogFields = {}) => {
    lines.push(`${level} ${message}`);
    records.push({ level, message, fields });
  };
  return {
    lines,
    records,
    debug: add('debug'),
    info: add('info'),
    warn: add('warn'),
    error: add('error'),
  };
}

export interface HarnessOptions {
  /** Extra settings (environment variables). */
  env?: Record<string, string>;
  /** Leave out the encrypt key (token-only webhook). */
  noEncryptKey?: boolean;
  /** Leave out the verification token (signature-only webhook). */
  noToken?: boolean;
  /** Leave Feishu unconfigured. */
  noFeishu?: boolean;
  provider?: LLMProvider;
  /** Reuse a workspace (a restart on the same state dir). */
  workspace?: TempWorkspace;
  feishu?: FakeFeishuServer;
  sleep?: (ms: number) => Promise<void>;
  shutdownGraceMs?: number;
  now?: () => number;
  /** Short HTTP timeouts, for tests of slow clients. */
  httpLimits?: Partial<HttpLimits>;
}

export interface Harness {
  server: RunningServer;
  feishu: FakeFeishuServer;
  ws: TempWorkspace;
  logger: ReturnType<typeof memoryLogger>;
  /** POST raw text with headers to the event endpoint. */
  postRaw(body: string, headers: Record<string, string>): Promise<Response>;
  /** Deliver an event as Feishu would with this harness's secrets (encrypted and signed when a key is set). */
  deliver(event: unknown, options?: FeishuRequestOptions): Promise<Response>;
  /** Deliver a text message; returns its ids. */
  say(
    chatId: string,
    senderOpenId: string,
    text: string,
  ): Promise<{ response: Response; messageId: string; eventId: string; event: unknown }>;
  /** Stop the server (and the fake, unless it was given). */
  close(): Promise<void>;
}

/** Start the real server on port 0 against a fresh fake Feishu, with settings loaded the real way. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const ws = options.workspace ?? (await createTempWorkspace());
  const feishu = options.feishu ?? (await startFakeFeishuServer({ appId: APP_ID, appSecret: APP_SECRET }));
  const env: Record<string, string> = {
    TINY_CLAW_STATE_DIR: ws.path('.state'),
    TINY_CLAW_WORKDIR: ws.dir,
    FEISHU_DOMAIN: feishu.url,
    ...(options.noFeishu ? {} : { FEISHU_APP_ID: APP_ID, FEISHU_APP_SECRET: APP_SECRET }),
    ...(options.noFeishu || options.noEncryptKey ? {} : { FEISHU_ENCRYPT_KEY: ENCRYPT_KEY }),
    ...(options.noFeishu || options.noToken ? {} : { FEISHU_VERIFICATION_TOKEN: VERIFICATION_TOKEN }),
    ...options.env,
  };
  const { settings } = await loadServerSettings({ env, cwd: ws.dir, homeDir: ws.dir });
  const logger = memoryLogger();
  const server = await startServer({
    settings,
    options: { host: '127.0.0.1', port: 0, eventPath: EVENT_PATH, mode: 'act', maxSteps: 8 },
    logger,
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.shutdownGraceMs === undefined ? {} : { shutdownGraceMs: options.shutdownGraceMs }),
    ...(options.httpLimits ? { httpLimits: options.httpLimits } : {}),
  });
  const encryptKey = options.noEncryptKey || options.noFeishu ? undefined : ENCRYPT_KEY;
  const token = options.noToken || options.noFeishu ? '' : VERIFICATION_TOKEN;
  const postRaw = (body: string, headers: Record<string, string>) =>
    fetch(`${server.url}${EVENT_PATH}`, { method: 'POST', headers, body });
  const deliver = (event: unknown, requestOptions: FeishuRequestOptions = {}) => {
    const { body, headers } = feishuRequest(event, {
      ...(encryptKey ? { encryptKey } : {}),
      ...requestOptions,
    });
    return postRaw(body, headers);
  };
  return {
    server,
    feishu,
    ws,
    logger,
    postRaw,
    deliver,
    say: async (chatId, senderOpenId, text) => {
      const event = feishuMessageEvent({ chatId, senderOpenId, text, token });
      feishu.knowMessage(event.event.message.message_id, chatId);
      const response = await deliver(event);
      return {
        response,
        messageId: event.event.message.message_id,
        eventId: event.header.event_id,
        event,
      };
    },
    close: async () => {
      await server.close();
      if (!options.feishu) await feishu.close();
      if (!options.workspace) await ws.cleanup();
    },
  };
}

/**
 * Resolves once the server has no chat work running or waiting (looked at every 10 ms; fails
 * after `boundMs`): each piece of chat work takes and releases its chat's lease in the state
 * store, so a queue of quick messages drains over a few turns of the event loop, not at once.
 */
export async function untilIdle(server: RunningServer, boundMs = 15_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const { running, waiting } = server.health().runs;
    if (running + waiting === 0) return;
    if (Date.now() > deadline) throw new Error(`the server still has ${running} chats running and ${waiting} waiting`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A provider that holds every model call until the test releases it (by a word of its prompt),
 * so a test can look at the server while a run is in progress — no timing guesses.
 */
export class GatedProvider implements LLMProvider {
  readonly name = 'gated';
  readonly model = 'gated';
  /** The prompts of the calls started, in order. */
  readonly started: string[] = [];
  active = 0;
  maxActive = 0;
  readonly #released = new Set<string>();
  readonly #waiting = new Map<string, Array<() => void>>();
  readonly #watchers = new Set<() => void>();

  constructor(private readonly answer: (prompt: string) => string = (prompt) => `answer to ${prompt}`) {}

  async complete(request: LLMRequest): Promise<LLMResponse> {
    const prompt = lastUserText(request);
    this.started.push(prompt);
    this.active += 1;
    this.maxActive = Math.max(this.maxActive, this.active);
    this.#notify();
    try {
      await this.#gate(prompt, request.signal);
    } finally {
      this.active -= 1;
      this.#notify();
    }
    return { message: { role: 'assistant', content: this.answer(prompt) }, provider: this.name, model: this.model };
  }

  /** Let the calls whose prompt contains `word` answer (now and later). */
  release(word: string): void {
    this.#released.add(word);
    for (const [prompt, resolvers] of this.#waiting) {
      if (!prompt.includes(word)) continue;
      this.#waiting.delete(prompt);
      for (const resolve of resolvers) resolve();
    }
  }

  /** Resolves once `predicate` holds (checked after every change). */
  until(predicate: () => boolean): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!predicate()) return;
        this.#watchers.delete(check);
        resolve();
      };
      this.#watchers.add(check);
    });
  }

  #gate(prompt: string, signal: AbortSignal | undefined): Promise<void> {
    if ([...this.#released].some((word) => prompt.includes(word))) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const list = this.#waiting.get(prompt) ?? [];
      list.push(resolve);
      this.#waiting.set(prompt, list);
      signal?.addEventListener('abort', () => reject(signal.reason ?? new Error('aborted')), { once: true });
    });
  }

  #notify(): void {
    for (const watcher of [...this.#watchers]) watcher();
  }
}

function lastUserText(request: LLMRequest): string {
  const users = request.messages.filter((message) => message.role === 'user');
  const last = users[users.length - 1];
  return typeof last?.content === 'string' ? last.content : '';
}
