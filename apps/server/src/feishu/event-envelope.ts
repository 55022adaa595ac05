import { z } from 'zod';

/** Ids Feishu gives events, messages, chats and users: short, and safe to use as keys. */
export const feishuIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/);

const plainObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
);

const challengeSchema = z.object({
  type: z.literal('url_verification'),
  challenge: z.string(),
  token: z.string().optional(),
});

const v2Schema = z.object({
  schema: z.literal('2.0'),
  header: z.object({
    event_id: feishuIdSchema,
    event_type: z.string().min(1).max(128),
    create_time: z
      .string()
      .regex(/^\d{1,16}$/)
      .optional(),
    token: z.string().optional(),
  }),
  event: plainObject,
});

const v1Schema = z.object({
  token: z.string(),
  uuid: z.string().max(128).optional(),
  event: plainObject.refine((event) => typeof event.type === 'string'),
});

/**
 * A decrypted Feishu request, by kind: the url_verification challenge, or an event (schema 2.0,
 * or the legacy 1.0 callbacks this server only acknowledges). `event` is the untouched parsed
 * object; each event type parses what it needs from it with its own schema.
 *
 * @example
 * const envelope = parseEnvelope(JSON.parse(text));
 * if (envelope?.kind === 'event') console.log(envelope.eventType);
 */
export type FeishuEnvelope =
  | { kind: 'challenge'; challenge: string; token: string | undefined }
  | {
      kind: 'event';
      version: 2;
      eventId: string;
      eventType: string;
      /** When Feishu created the event (ms since the epoch), if it said. */
      createTimeMs: number | undefined;
      token: string | undefined;
      event: Record<string, unknown>;
    }
  | { kind: 'legacy'; eventType: string; token: string };

/**
 * Recognise the shape of a decrypted request, or undefined when it is none Feishu sends (an
 * unknown schema version, a missing header or event). Only known fields are read, and never merged
 * into another object, so keys like `__proto__` in the body stay inert data.
 *
 * @example
 * parseEnvelope({ type: 'url_verification', challenge: 'c', token: 't' }); // { kind: 'challenge', … }
 * parseEnvelope({ schema: '3.0' }); // undefined
 */
export function parseEnvelope(body: Record<string, unknown>): FeishuEnvelope | undefined {
  if (body.type === 'url_verification') {
    const parsed = challengeSchema.safeParse(body);
    return parsed.success
      ? { kind: 'challenge', challenge: parsed.data.challenge, token: parsed.data.token }
      : undefined;
  }
  if ('schema' in body) {
    const parsed = v2Schema.safeParse(body);
    if (!parsed.success) return undefined;
    const { header, event } = parsed.data;
    return {
      kind: 'event',
      version: 2,
      eventId: header.event_id,
      eventType: header.event_type,
      createTimeMs: header.create_time === undefined ? undefined : Number(header.create_time),
      token: header.token,
      event,
    };
  }
  const legacy = v1Schema.safeParse(body);
  if (!legacy.success) return undefined;
  return { kind: 'legacy', eventType: String(legacy.data.event.type), token: legacy.data.token };
}
