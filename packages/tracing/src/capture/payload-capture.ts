import type { KeyObject } from 'node:crypto';
import { stableJson } from '@tiny-claw/core/utils';
import type { TraceAttributes, TraceCaptureMode } from '../trace-schema.js';
import { keyedHash } from './keyed-hash.js';
import { type SanitizeOptions, toTraceValue, truncateText } from './sanitize.js';

const MAX_KEYS = 100;

/**
 * Payloads that metadata mode fingerprints. A model call's request and response are left out
 * there: `llm.call` already carries their sizes (`message_count`, `text_chars`, `tool_calls`, token
 * counts), the tool payloads carry the same content, and hashing both on every step was the largest
 * part of the tracing overhead on a fast run. Replay mode keeps all of them.
 */
const METADATA_PAYLOADS: ReadonlySet<string> = new Set([
  'prompt',
  'result_text',
  'tool_arguments',
  'tool_observation',
]);

export type { TracePayloadName } from '../tracer/span-types.js';

import type { TracePayloadName } from '../tracer/span-types.js';

/**
 * What payload capture needs: the mode, the salt for hashes, and the sanitiser for replay.
 *
 * @example
 * const options: PayloadCaptureOptions = { mode: 'metadata', salt, sanitize: { redactor, maxStringChars: 4000 } };
 */
export interface PayloadCaptureOptions {
  mode: TraceCaptureMode;
  salt: Uint8Array | KeyObject;
  /** Used in replay mode; `maxStringChars` is `TINY_CLAW_TRACE_MAX_PAYLOAD_CHARS`. */
  sanitize: SanitizeOptions;
}

/**
 * The span attributes that stand for a payload.
 * - metadata (`prompt`, `result_text`, `tool_arguments`, `tool_observation` only): `<name>_hash` (HMAC-SHA256 with the install salt), `<name>_keys` (sorted top-level
 *   keys of an object, else `[]`) and `<name>_chars` (length of the serialised payload) — never
 *   the content;
 * - replay: `<name>` (redacted by key and value, each string truncated), `<name>_hash`,
 *   `<name>_chars`.
 *
 * @example
 * capturePayload('tool_arguments', { path: 'a.txt' }, options);
 * // metadata → { tool_arguments_hash: '…', tool_arguments_keys: ['path'], tool_arguments_chars: 16 }
 */
export function capturePayload(
  name: TracePayloadName,
  value: unknown,
  options: PayloadCaptureOptions,
): TraceAttributes {
  if (options.mode === 'metadata' && !METADATA_PAYLOADS.has(name)) return {};
  const serialized = typeof value === 'string' ? value : stableJson(value);
  const hash = keyedHash(options.salt, serialized);
  if (options.mode === 'replay') {
    return {
      [name]: toTraceValue(value, options.sanitize) ?? null,
      [`${name}_hash`]: hash,
      [`${name}_chars`]: serialized.length,
    };
  }
  return {
    [`${name}_hash`]: hash,
    [`${name}_keys`]: keysOf(value, options),
    [`${name}_chars`]: serialized.length,
  };
}

/** Key names are kept in metadata mode, but still pass the value rules: a key can be a secret. */
function keysOf(value: unknown, options: PayloadCaptureOptions): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value)
    .sort()
    .slice(0, MAX_KEYS)
    .map((key) => truncateText(options.sanitize.redactor.redactText(key), 200));
}
