import type { Logger, RunMode } from '@tiny-claw/core';
import type { Application, Settings } from '@tiny-claw/runtime';
import { ChatAgent } from '../chat/chat-agent.js';
import type { ChatLeaseEvent } from '../chat/chat-lease.js';
import { replicaId } from '../chat/replica-id.js';
import { envelopeFromDispatcher } from '../feishu/dispatcher-event.js';
import { EventRouter } from '../feishu/event-router.js';
import { larkApi } from '../feishu/feishu-api.js';
import type { FeishuDomain } from '../feishu/feishu-domain.js';
import { fetchHttpInstance } from '../feishu/fetch-http.js';
import { MessageSender } from '../feishu/message-sender.js';
import { sdkLogger } from '../feishu/sdk-logger.js';
import { FeishuWebhook } from '../feishu/webhook.js';
import type { FeishuOptions } from './feishu-options.js';

/** The Feishu app's credentials, once the server knows they are all there. */
export interface FeishuCredentials {
  appId: string;
  appSecret: string;
  encryptKey: string | undefined;
  verificationToken: string | undefined;
}

/** Inputs of {@link startFeishu}. */
export interface StartFeishuInput {
  app: Application;
  settings: Settings;
  credentials: FeishuCredentials;
  options: FeishuOptions;
  mode: RunMode;
  maxSteps: number;
  logger: Logger;
  /** Every value that must never reach a chat or a log line. */
  knownSecrets: readonly string[];
  /** Aborted when running work must end (shutdown past its grace period). */
  signal: AbortSignal;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The Feishu side of a running server: the chat agent, the webhook (in webhook mode) and the
 * long connection (in ws mode), sharing one sender and the application's seen keys.
 *
 * @example
 * const feishu = await startFeishu(input);
 * feishu.chat.stop();
 * await feishu.close();
 */
export interface FeishuRuntime {
  chat: ChatAgent;
  sender: MessageSender;
  /** Present in webhook mode. */
  webhook: FeishuWebhook | undefined;
  /** Stop the long connection (ws mode); the application's close saves the seen ids. */
  close(): Promise<void>;
}

/**
 * Build the Feishu side: the chat agent holding each chat's lease in the application's state store
 * while that chat's work runs (`TINY_CLAW_CHAT_LEASE_SECONDS`, so replicas sharing PostgreSQL run
 * one chat's messages one at a time), the SDK client pointed at the configured domain (imported only now, so a
 * server without Feishu never loads it), its logging routed through a scrubbing logger, the
 * router de-duplicating events with the application's seen keys (files under the state dir), and
 * in ws mode the SDK's long connection delivering events into the same router the webhook uses.
 *
 * @example
 * const feishu = await startFeishu({ app, settings, credentials, options, mode: 'act', maxSteps: 20, logger, knownSecrets, signal });
 */
export async function startFeishu(input: StartFeishuInput): Promise<FeishuRuntime> {
  const { credentials, options, logger } = input;
  const lark = await import('@larksuiteoapi/node-sdk');
  const sdkLog = sdkLogger(logger, input.knownSecrets);
  const loggerLevel =
    input.settings.logLevel === 'debug' ? lark.LoggerLevel.info : lark.LoggerLevel.warn;
  const domain = sdkDomain(options.domain, lark.Domain);
  const httpInstance = fetchHttpInstance();
  const client = new lark.Client({
    appId: credentials.appId,
    appSecret: credentials.appSecret,
    domain,
    logger: sdkLog,
    loggerLevel,
    source: 'tiny-claw',
    // Its own token cache: the SDK's default one is shared by every client in the process.
    cache: new lark.DefaultCache(),
    httpInstance,
  });
  const sender = new MessageSender({
    api: larkApi(client),
    logger,
    knownSecrets: input.knownSecrets,
    ...(input.sleep ? { sleep: input.sleep } : {}),
  });
  const chat = new ChatAgent({
    app: input.app,
    sender,
    logger,
    mode: input.mode,
    maxSteps: input.maxSteps,
    signal: input.signal,
    lease: {
      leases: input.app.agent.store.leases,
      holder: replicaId(),
      ttlMs: input.settings.chatLeaseSeconds * 1000,
      onEvent: (event) => logLeaseEvent(logger, event),
    },
  });
  const router = new EventRouter({
    seen: input.app.agent.store.seen,
    chat,
    logger,
    ...(input.now ? { now: input.now } : {}),
  });

  let webhook: FeishuWebhook | undefined;
  let connection: { close(params?: { force?: boolean }): void } | undefined;
  if (options.mode === 'webhook') {
    webhook = new FeishuWebhook({
      secrets: {
        encryptKey: credentials.encryptKey,
        verificationToken: credentials.verificationToken,
      },
      router,
      logger,
      ...(input.now ? { now: input.now } : {}),
    });
  } else {
    const route = async (data: unknown, eventType: string) => {
      const envelope = envelopeFromDispatcher(data, eventType);
      if (!envelope) {
        logger.info(`feishu: ignored a ${eventType} event without an event id`);
        return {};
      }
      return (await router.route(envelope)).body;
    };
    const dispatcher = new lark.EventDispatcher({ logger: sdkLog, loggerLevel }).register({
      'im.message.receive_v1': (data: unknown) => route(data, 'im.message.receive_v1'),
      'card.action.trigger': (data: unknown) => route(data, 'card.action.trigger'),
    });
    const ws = new lark.WSClient({
      appId: credentials.appId,
      appSecret: credentials.appSecret,
      domain,
      logger: sdkLog,
      loggerLevel,
      source: 'tiny-claw',
      httpInstance,
      onReady: () => logger.info('feishu: long connection established'),
      onError: (error: Error) =>
        logger.error(`feishu: the long connection failed: ${error.message}`),
    });
    // The SDK reconnects by itself; the server does not wait for the first connection to serve /health.
    ws.start({ eventDispatcher: dispatcher }).catch((error: unknown) => {
      logger.error(`feishu: could not open the long connection: ${String(error)}`);
    });
    connection = ws;
  }

  return {
    chat,
    sender,
    webhook,
    close: async () => {
      connection?.close({ force: true });
    },
  };
}

function logLeaseEvent(logger: Logger, event: ChatLeaseEvent): void {
  const fields = { chat_id: event.chatId };
  if (event.kind === 'waiting') {
    logger.info(
      `feishu: chat ${event.chatId} waits for its lease: another replica is running its work`,
      fields,
    );
  } else if (event.kind === 'lost') {
    logger.warn(
      `feishu: the lease of chat ${event.chatId} expired while its work ran and was taken over; raise TINY_CLAW_CHAT_LEASE_SECONDS if the state store is slow`,
      fields,
    );
  } else {
    const reason = event.error instanceof Error ? event.error.message : String(event.error);
    logger.warn(
      `feishu: the state store failed on chat ${event.chatId}'s lease: ${reason}`,
      fields,
    );
  }
}

function sdkDomain(domain: FeishuDomain, known: { Feishu: number; Lark: number }): number | string {
  if (domain.kind === 'feishu') return known.Feishu;
  if (domain.kind === 'lark') return known.Lark;
  return domain.url;
}
