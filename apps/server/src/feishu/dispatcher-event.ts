import type { FeishuEnvelope } from './event-envelope.js';
import { feishuIdSchema } from './event-envelope.js';

/**
 * Rebuild the envelope of an event the SDK's dispatcher delivered over the long connection. The
 * dispatcher flattens an event (header fields and event fields side by side), so the event fields
 * this server reads (`sender`, `message`, `operator`, `action`, `context`) are taken from the same
 * object; the connection itself is authenticated with the app secret, so there is no token to
 * check.
 *
 * @example
 * dispatcher.register({ 'im.message.receive_v1': (data) => router.route(envelopeFromDispatcher(data, 'im.message.receive_v1')!) });
 */
export function envelopeFromDispatcher(
  data: unknown,
  eventType: string,
): Extract<FeishuEnvelope, { kind: 'event' }> | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const fields = data as Record<string, unknown>;
  const eventId = feishuIdSchema.safeParse(fields.event_id);
  if (!eventId.success) return undefined;
  const created =
    typeof fields.create_time === 'string' && /^\d{1,16}$/.test(fields.create_time)
      ? Number(fields.create_time)
      : undefined;
  return {
    kind: 'event',
    version: 2,
    eventId: eventId.data,
    eventType,
    createTimeMs: created,
    token: undefined,
    event: fields,
  };
}
