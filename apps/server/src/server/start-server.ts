import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { ConfigurationError, type LLMProvider, type Logger, type RunMode } from '@tiny-claw/core';
import {
  createApplication,
  createStderrLogger,
  type Settings,
  type StateBackend,
  stateBackend,
} from '@tiny-claw/runtime';
import { chatText } from '../chat/chat-text.js';
import { domainLabel } from '../feishu/feishu-domain.js';
import { createHttpApp, type EventEndpoint } from '../http/http-app.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits, nodeServerOptions } from '../http/http-limits.js';
import type { ServerHealth } from '../http/server-health.js';
import { withStateCheck } from '../http/state-check.js';
import { serverVersion } from '../version.js';
import { type FeishuOptions, feishuOptionsOf } from './feishu-options.js';
import { type FeishuCredentials, type FeishuRuntime, startFeishu } from './feishu-runtime.js';
import { scrubbingLogger } from './scrubbing-logger.js';

/** How long shutdown waits for running work before cancelling it. */
export const SHUTDOWN_GRACE_MS = 25_000;
/** How long cancelled work gets to write its trace and say so in the chat. */
const CANCEL_WAIT_MS = 5_000;

/** Where and how the server runs (the command line's flags, with settings as defaults). */
export interface ServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  eventPath: string;
  /** Mode and step limit of every run started from a chat. */
  mode: RunMode;
  maxSteps: number;
}

/** Inputs of {@link startServer}. */
export interface StartServerInput {
  settings: Settings;
  options: ServerOptions;
  logger?: Logger;
  /** Instead of the provider chosen by settings (tests, embedding). */
  provider?: LLMProvider;
  now?: () => number;
  /** Waits between send retries (tests pass one that records and returns at once). */
  sleep?: (ms: number) => Promise<void>;
  shutdownGraceMs?: number;
  /** Instead of {@link DEFAULT_HTTP_LIMITS}, in part or whole (tests use short timeouts). */
  httpLimits?: Partial<HttpLimits>;
}

/**
 * A server that is listening.
 *
 * @example
 * const server = await startServer(input);
 * console.log(server.url);
 * await server.close();
 */
export interface RunningServer {
  /** `http://<host>:<port>` */
  url: string;
  port: number;
  health(): ServerHealth;
  /**
   * Shut down gracefully: stop accepting requests (events are answered 503 so Feishu delivers them
   * again later), tell chats whose messages had not started yet to send them again, let running
   * work finish for the grace period, then cancel what is left (its runs end `cancelled`), flush
   * the traces and close the state store (which saves the seen event ids). Safe to call more than
   * once.
   */
  close(): Promise<void>;
}

/**
 * Start tiny-claw-server: the application from settings (echo when no model key is set), and, when
 * Feishu is configured, the chat side in webhook or long-connection mode. Starts without Feishu
 * configured too: the event endpoint then answers 503 saying what to set. A webhook with neither
 * an encrypt key nor a verification token is refused at start, since anyone could post events to
 * it. A client gets 10 s for its headers and 30 s for its whole request before it is answered 408
 * and cut off ({@link DEFAULT_HTTP_LIMITS}).
 *
 * @throws ConfigurationError (exit 78) for a webhook without key or token, a port in use, or
 * anything the application refuses.
 * @example
 * const server = await startServer({ settings, options: { host: '127.0.0.1', port: 0, eventPath: '/api/events/feishu', mode: 'act', maxSteps: 20 } });
 */
export async function startServer(input: StartServerInput): Promise<RunningServer> {
  const { settings, options } = input;
  const serverOptions = nodeServerOptions({ ...DEFAULT_HTTP_LIMITS, ...input.httpLimits });
  const feishuOptions = feishuOptionsOf(settings);
  const credentials = feishuCredentials(settings);
  if (
    credentials.kind === 'ok' &&
    feishuOptions.mode === 'webhook' &&
    !credentials.value.encryptKey &&
    !credentials.value.verificationToken
  ) {
    throw new ConfigurationError(
      'Refusing to start the Feishu webhook without FEISHU_ENCRYPT_KEY or FEISHU_VERIFICATION_TOKEN: anyone could post forged events to it. ' +
        'Set FEISHU_ENCRYPT_KEY (recommended; from the app\'s "Events and callbacks" security settings) and FEISHU_VERIFICATION_TOKEN, or use FEISHU_MODE=ws.',
    );
  }
  const knownSecrets = secretsOf(settings);
  const logger = scrubbingLogger(
    input.logger ?? createStderrLogger(settings.logLevel, { format: settings.logFormat }),
    knownSecrets,
  );
  const app = await createApplication(settings, {
    front: 'server',
    logger,
    ...(input.provider ? { provider: input.provider } : {}),
  });
  // Bash is confined only when bubblewrap works here; a fallback of `auto` is said once, at start.
  // The sandbox is probed (a child process) only when bash may run at all.
  const sandbox = app.agent.tools.includes('bash') ? app.health().sandbox : undefined;
  if (sandbox && sandbox.active === 'off' && sandbox.mode !== 'off') {
    logger.warn(
      `bash commands run unconfined: ${sandbox.reason}. Install bubblewrap to confine them, or set TINY_CLAW_SANDBOX=off to silence this.`,
    );
  }

  const cancel = new AbortController();
  let feishu: FeishuRuntime | undefined;
  if (credentials.kind === 'ok') {
    try {
      feishu = await startFeishu({
        app,
        settings,
        credentials: credentials.value,
        options: feishuOptions,
        mode: options.mode,
        maxSteps: options.maxSteps,
        logger,
        knownSecrets,
        signal: cancel.signal,
        ...(input.now ? { now: input.now } : {}),
        ...(input.sleep ? { sleep: input.sleep } : {}),
      });
    } catch (error) {
      await app.close();
      throw error;
    }
  }

  let draining = false;
  const provider = {
    name: app.provider.name,
    model: app.provider.model ?? settings.model ?? app.provider.name,
  };
  const version = serverVersion();
  const connected = app.mcp.servers.filter((server) => server.status === 'connected');
  const mcpCounts = {
    servers: app.mcp.servers.length,
    connected: connected.length,
    tools: connected.reduce((sum, server) => sum + server.tools.length, 0),
  };
  const shownState = stateOf(stateBackend(settings));
  const health = (): ServerHealth => ({
    status: draining ? 'draining' : 'ok',
    version,
    provider,
    approvals: app.approvalProvider,
    feishu: feishuHealth(settings, feishuOptions, options.eventPath, credentials.kind === 'ok'),
    state: shownState,
    runs: { running: feishu?.chat.running ?? 0, waiting: feishu?.chat.waiting ?? 0 },
    mcp: mcpCounts,
  });
  const events = (): EventEndpoint => {
    if (draining) {
      return {
        kind: 'closed',
        status: 503,
        error: 'shutting_down',
        message: 'The server is shutting down; Feishu delivers the event again later.',
      };
    }
    if (credentials.kind !== 'ok') {
      return {
        kind: 'closed',
        status: 503,
        error: 'feishu_not_configured',
        message: credentials.message,
      };
    }
    const webhook = feishu?.webhook;
    if (!webhook) {
      return {
        kind: 'closed',
        status: 404,
        error: 'feishu_webhook_off',
        message:
          'FEISHU_MODE=ws: this server receives Feishu events over the long connection, not here.',
      };
    }
    return { kind: 'open', handle: (request) => webhook.handle(request) };
  };
  const http = createHttpApp({
    eventPath: options.eventPath,
    health: () => withStateCheck(health(), () => app.checkState()),
    events,
    onError: (error) => logger.error(`server: unexpected error: ${String(error)}`),
  });

  const server = serve({
    fetch: http.fetch,
    hostname: options.host,
    port: options.port,
    serverOptions,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (error) {
    await feishu?.close();
    await app.close();
    const code = (error as { code?: string }).code;
    throw new ConfigurationError(
      code === 'EADDRINUSE'
        ? `Port ${options.port} on ${options.host} is already in use: pass --port with a free port or set TINY_CLAW_SERVER_PORT.`
        : `Could not listen on ${options.host}:${options.port}: ${String(error)}`,
      { cause: error },
    );
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  let closing: Promise<void> | undefined;
  const close = async () => {
    draining = true;
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    if ('closeIdleConnections' in server) server.closeIdleConnections();
    if (feishu) {
      const { chat, sender } = feishu;
      const notices = chat
        .stop()
        .map((task) =>
          sender.sendText(task.chatId, chatText.restarting, { replyTo: task.replyTo }),
        );
      const grace = input.shutdownGraceMs ?? SHUTDOWN_GRACE_MS;
      if (!(await within(Promise.all([chat.idle(), ...notices]), grace))) {
        logger.warn(`server: cancelling the work still running after ${grace} ms`);
        cancel.abort();
        await within(chat.idle(), CANCEL_WAIT_MS);
      }
      await feishu.close();
    }
    await app.close();
    if ('closeAllConnections' in server) server.closeAllConnections();
    await stopped;
  };

  return {
    url,
    port: address.port,
    health,
    close: () => {
      closing ??= close();
      return closing;
    },
  };
}

/** The state backend as `/health` shows it: no state dir (a path), the database URL masked. */
function stateOf(state: StateBackend): ServerHealth['state'] {
  return state.backend === 'files' ? { backend: 'files' } : { backend: 'postgres', url: state.url };
}

type Credentials = { kind: 'ok'; value: FeishuCredentials } | { kind: 'missing'; message: string };

function feishuCredentials(settings: Settings): Credentials {
  const { appId, appSecret, encryptKey, verificationToken } = settings.feishu;
  if (appId && appSecret) {
    return { kind: 'ok', value: { appId, appSecret, encryptKey, verificationToken } };
  }
  const missing = [
    appId ? undefined : 'FEISHU_APP_ID',
    appSecret ? undefined : 'FEISHU_APP_SECRET',
  ].filter(Boolean);
  return {
    kind: 'missing',
    message: `Feishu is not configured: set ${missing.join(' and ')}, and FEISHU_ENCRYPT_KEY (recommended) or FEISHU_VERIFICATION_TOKEN, then restart the server.`,
  };
}

function feishuHealth(
  settings: Settings,
  feishu: FeishuOptions,
  eventPath: string,
  configured: boolean,
): ServerHealth['feishu'] {
  if (!configured) return { configured: false };
  const domain = domainLabel(feishu.domain);
  if (feishu.mode === 'ws') return { configured: true, mode: 'ws', domain };
  const { encryptKey, verificationToken } = settings.feishu;
  const verification =
    encryptKey && verificationToken ? 'signature and token' : encryptKey ? 'signature' : 'token';
  return { configured: true, mode: 'webhook', domain, eventPath, verification };
}

/** Every configured secret: never in a log line, a chat message or `/health`. */
function secretsOf(settings: Settings): string[] {
  return [
    settings.feishu.appSecret,
    settings.feishu.encryptKey,
    settings.feishu.verificationToken,
    settings.openai.apiKey,
    settings.anthropic.apiKey,
  ].filter((value): value is string => typeof value === 'string' && value !== '');
}

/** Whether `promise` settled within `ms` (the timer does not keep the process alive). */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
