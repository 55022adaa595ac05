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
  return capturePayloadInto({}, name, value, options);
}

/** Attribute names of each payload, built once rather than on every capture. */
const ATTRIBUTE_NAMES = new Map<string, { hash: string; keys: string; chars: string }>();

function attributeNames(name: string): { hash: string; keys: string; chars: string } {
  let names = ATTRIBUTE_NAMES.get(name);
  if (!names) {
    names = { hash: `${name}_hash`, keys: `${name}_keys`, chars: `${name}_chars` };
    ATTRIBUTE_NAMES.set(name, names);
  }
  return names;
}

/**
 * Whether `capturePayload` keeps anything of payload `name` under `mode`: metadata mode skips the
 * model's request and response, so a tracer need not even assemble them.
 *
 * @example
 * if (capturesPayload('metadata', 'llm_request')) span.recordPayload('llm_request', messages);
 */
export function capturesPayload(mode: TraceCaptureMode, name: TracePayloadName): boolean {
  return mode !== 'metadata' || METADATA_PAYLOADS.has(name);
}

/**
 * {@link capturePayload} written straight into `target` (a span's attributes). Given `hashLater`,
 * the `<name>_hash` attribute is written empty and `hashLater` is told what to hash into it.
 *
 * @example
 * capturePayloadInto(node.attributes, 'tool_arguments', { path: 'a.txt' }, options);
 */
export function capturePayloadInto(
  target: TraceAttributes,
  name: TracePayloadName,
  value: unknown,
  options: PayloadCaptureOptions,
  hashLater?: (attribute: string, serialized: string) => void,
): TraceAttributes {
  if (!capturesPayload(options.mode, name)) return target;
  const serialized = typeof value === 'string' ? value : stableJson(value);
  const names = attributeNames(name);
  // With `hashLater` the hash is left to the caller (the tracer hashes a run's payloads in one go
  // when it ends); the attribute keeps its place meanwhile.
  let hash = '';
  if (hashLater) hashLater(names.hash, serialized);
  else hash = keyedHash(options.salt, serialized);
  // Everything is worked out before the first write: a capture that throws leaves no half.
  if (options.mode === 'replay') {
    const copy = toTraceValue(value, options.sanitize) ?? null;
    target[name] = copy;
    target[names.hash] = hash;
    target[names.chars] = serialized.length;
    return target;
  }
  const keys = keysOf(value, options);
  target[names.hash] = hash;
  target[names.keys] = keys;
  target[names.chars] = serialized.length;
  return target;
}

/** Key names are kept in metadata mode, but still pass the value rules: a key can be a secret. */
function keysOf(value: unknown, options: PayloadCaptureOptions): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value)
    .sort()
    .slice(0, MAX_KEYS)
    .map((key) => truncateText(options.sanitize.redactor.redactText(key), 200));
}
