import type { Logger } from '@tiny-claw/core';
import { decryptEvent } from './decrypt-event.js';
import { parseEnvelope } from './event-envelope.js';
import type { EventAnswer, EventRouter } from './event-router.js';
import { checkSignature, type SignatureHeaders } from './request-signature.js';
import { safeEqual } from './safe-equal.js';

/**
 * The secrets Feishu requests are checked with; at least one must be set.
 *
 * @example
 * const secrets: WebhookSecrets = { encryptKey: process.env.FEISHU_ENCRYPT_KEY };
 */
export interface WebhookSecrets {
  encryptKey?: string | undefined;
  verificationToken?: string | undefined;
}

/**
 * One request to the event endpoint, as received.
 *
 * @example
 * const request: WebhookRequest = { contentType: 'application/json', headers, rawBody };
 */
export interface WebhookRequest {
  contentType: string | undefined;
  headers: SignatureHeaders;
  rawBody: Uint8Array;
}

const unauthorized: EventAnswer = { status: 401, body: { error: 'unauthorized' } };
const badRequest: EventAnswer = { status: 400, body: { error: 'bad_request' } };

/**
 * The Feishu event endpoint's checks, in order, on the raw bytes received: JSON content type;
 * with an encrypt key, the `X-Lark-Signature` over the exact body (constant time, timestamp within
 * 12 hours) and an encrypted body (a plaintext one is a downgrade attempt: 401), decrypted with
 * AES-256-CBC; the verification token, when configured, compared in constant time; then the
 * url_verification challenge is echoed, and an event goes to the router. Feishu's url_verification
 * request carries no signature headers, so with an encrypt key an unsigned request is accepted only
 * when it decrypts to a challenge (with the right token, if one is set). Refusals say nothing
 * specific to the sender (401 / 400); the reason goes to the log.
 *
 * @example
 * const webhook = new FeishuWebhook({ secrets, router, logger });
 * const answer = await webhook.handle({ contentType, headers, rawBody });
 */
export class FeishuWebhook {
  readonly #secrets: WebhookSecrets;
  readonly #router: EventRouter;
  readonly #logger: Logger;
  readonly #now: () => number;

  constructor(options: {
    secrets: WebhookSecrets;
    router: EventRouter;
    logger: Logger;
    now?: () => number;
  }) {
    if (!options.secrets.encryptKey && !options.secrets.verificationToken) {
      throw new Error('a Feishu webhook needs an encrypt key or a verification token');
    }
    this.#secrets = options.secrets;
    this.#router = options.router;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
  }

  async handle(request: WebhookRequest): Promise<EventAnswer> {
    const { encryptKey, verificationToken } = this.#secrets;
    if (!/^application\/json\b/i.test(request.contentType ?? '')) {
      return {
        status: 415,
        body: { error: 'unsupported_media_type', message: 'send application/json' },
      };
    }
    if (request.rawBody.length === 0) return this.#refuse(badRequest, 'empty body');
    const { timestamp, nonce, signature } = request.headers;
    const signed = timestamp !== undefined || nonce !== undefined || signature !== undefined;
    if (encryptKey && signed) {
      const failure = checkSignature(request.headers, request.rawBody, encryptKey, this.#now());
      if (failure) return this.#refuse(unauthorized, `signature check failed (${failure})`);
    }
    const body = parseObject(new TextDecoder().decode(request.rawBody));
    if (!body) return this.#refuse(badRequest, 'the body is not a JSON object');

    let payload = body;
    if ('encrypt' in body) {
      if (!encryptKey)
        return this.#refuse(badRequest, 'an encrypted event, but FEISHU_ENCRYPT_KEY is not set');
      // Unsigned, a decryption failure is reported as unauthorized: no padding oracle to probe.
      const failed = signed ? badRequest : unauthorized;
      if (typeof body.encrypt !== 'string') return this.#refuse(failed, 'encrypt is not a string');
      const text = decryptEvent(body.encrypt, encryptKey);
      if (text === undefined) return this.#refuse(failed, 'the event could not be decrypted');
      const decrypted = parseObject(text);
      if (!decrypted) return this.#refuse(failed, 'the decrypted event is not a JSON object');
      payload = decrypted;
    } else if (encryptKey) {
      return this.#refuse(unauthorized, 'a plaintext event, but an encrypt key is configured');
    }

    const envelope = parseEnvelope(payload);
    if (!envelope)
      return this.#refuse(
        badRequest,
        'not an event Feishu sends (schema, header or event missing)',
      );
    if (verificationToken) {
      const token = envelope.token;
      if (token === undefined || !safeEqual(token, verificationToken)) {
        return this.#refuse(unauthorized, 'wrong or missing verification token');
      }
    }
    if (envelope.kind === 'challenge')
      return { status: 200, body: { challenge: envelope.challenge } };
    if (encryptKey && !signed)
      return this.#refuse(unauthorized, 'an event without signature headers');
    return this.#router.route(envelope);
  }

  #refuse(answer: EventAnswer, reason: string): EventAnswer {
    this.#logger.warn(
      `feishu: refused a request to the event endpoint (${answer.status}): ${reason}`,
    );
    return answer;
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
