import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { EventAnswer } from '../feishu/event-router.js';
import type { WebhookRequest } from '../feishu/webhook.js';
import type { ServerHealth } from './server-health.js';

/** The largest request body the event endpoint reads; Feishu events are a few KB. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * What the event endpoint can do right now: handle requests, or answer a fixed error (Feishu not
 * configured, the long-connection mode, shutting down).
 *
 * @example
 * const state: EventEndpoint = { kind: 'closed', status: 503, error: 'feishu_not_configured', message: 'Set FEISHU_APP_ID …' };
 */
export type EventEndpoint =
  | { kind: 'open'; handle: (request: WebhookRequest) => Promise<EventAnswer> }
  | { kind: 'closed'; status: 404 | 503; error: string; message: string };

/** Options of {@link createHttpApp}. */
export interface HttpAppOptions {
  eventPath: string;
  /** The report `GET /health` answers; `unavailable` is answered with HTTP 503. */
  health: () => Promise<ServerHealth>;
  events: () => EventEndpoint;
  maxBodyBytes?: number;
  /** Told about an unexpected error (the client only gets a generic 500). */
  onError?: (error: unknown) => void;
}

/**
 * The server's routes: `GET /health` (503 when the state database cannot be reached), and `POST <eventPath>` for Feishu events (256 KiB at most;
 * other methods 405). Errors answer JSON without details; nothing here waits for agent work.
 *
 * @example
 * const app = createHttpApp({ eventPath: '/api/events/feishu', health, events });
 * const res = await app.request('/health');
 */
export function createHttpApp(options: HttpAppOptions): Hono {
  const app = new Hono();
  app.get('/health', async (c) => {
    const health = await options.health();
    return c.json(health, health.status === 'unavailable' ? 503 : 200);
  });
  app.post(
    options.eventPath,
    bodyLimit({
      maxSize: options.maxBodyBytes ?? MAX_BODY_BYTES,
      onError: (c) => {
        // The unread rest of the body is still on the wire: this connection cannot carry another request.
        c.header('connection', 'close');
        return c.json({ error: 'payload_too_large' }, 413);
      },
    }),
    async (c) => {
      const endpoint = options.events();
      if (endpoint.kind === 'closed') {
        return c.json({ error: endpoint.error, message: endpoint.message }, endpoint.status);
      }
      const rawBody = new Uint8Array(await c.req.arrayBuffer());
      const answer = await endpoint.handle({
        contentType: c.req.header('content-type'),
        headers: {
          timestamp: c.req.header('x-lark-request-timestamp'),
          nonce: c.req.header('x-lark-request-nonce'),
          signature: c.req.header('x-lark-signature'),
        },
        rawBody,
      });
      return c.json(answer.body, answer.status as 200);
    },
  );
  app.all(options.eventPath, (c) => {
    c.header('allow', 'POST');
    return c.json({ error: 'method_not_allowed', message: 'Feishu events are POSTed here' }, 405);
  });
  app.notFound((c) => c.json({ error: 'not_found' }, 404));
  // No stack trace or message leaves the server; the cause is for the operator's log.
  app.onError((error, c) => {
    options.onError?.(error);
    return c.json({ error: 'internal_error' }, 500);
  });
  return app;
}
