import type { TraceAttributes, TraceJsonValue } from '../trace-schema.js';
import type { Redactor } from './redactor.js';

/**
 * Longest string kept in a span attribute (the original's limit).
 *
 * @example
 * sanitizeAttributes(attributes, { redactor, maxStringChars: ATTRIBUTE_MAX_CHARS });
 */
export const ATTRIBUTE_MAX_CHARS = 4000;

/**
 * Deeper nesting is replaced by a marker, so a pathological payload cannot exhaust the stack.
 *
 * @example
 * toTraceValue(deep, options); // nesting below MAX_DEPTH becomes '[depth limit]'
 */
export const MAX_DEPTH = 50;

// Secrets are matched on a window a little longer than what is kept, so one that straddles the cut
// is still recognised whole; what lies beyond the window is never stored anyway.
const REDACTION_WINDOW_SLACK = 4096;

// Beyond this many entries an array or object is cut: a trace is for reading, not for archiving.
const MAX_ENTRIES = 1000;

/**
 * How to turn an arbitrary value into trace JSON.
 *
 * @example
 * const options: SanitizeOptions = { redactor, maxStringChars: 4000 };
 */
export interface SanitizeOptions {
  redactor: Redactor;
  /** Longest string kept; longer ones end with `...[truncated N chars]...`. */
  maxStringChars: number;
}

/**
 * Cut `text` to `limit` characters, ending with the original's marker
 * `...[truncated <original length> chars]...`.
 *
 * @example
 * truncateText('x'.repeat(50), 40); // 'xxxxxxxxxxxxxxx...[truncated 50 chars]...'
 */
export function truncateText(text: string, limit: number, originalLength = text.length): string {
  if (text.length <= limit) return text;
  const marker = `...[truncated ${originalLength} chars]...`;
  return text.slice(0, Math.max(0, limit - marker.length)) + marker;
}

/**
 * Redact by value, then truncate. Redaction runs first, so a secret cut in half by the truncation
 * cannot survive as an unrecognisable prefix.
 *
 * @example
 * sanitizeText('key sk-… and more', { redactor, maxStringChars: 4000 });
 */
export function sanitizeText(text: string, options: SanitizeOptions): string {
  const window = text.slice(0, options.maxStringChars + REDACTION_WINDOW_SLACK);
  return truncateText(options.redactor.redactText(window), options.maxStringChars, text.length);
}

/**
 * Turn span attributes into stored ones: null and undefined dropped, strings redacted by value and
 * truncated. Top-level keys are never redacted by name (so `input_tokens` or `session_key`
 * survive); nested values are, like any payload.
 *
 * @example
 * sanitizeAttributes({ model: 'gpt', note: undefined }, options); // { model: 'gpt' }
 */
export function sanitizeAttributes(
  attributes: Record<string, unknown>,
  options: SanitizeOptions,
): TraceAttributes {
  return assignSanitized({}, attributes, options);
}

/**
 * {@link sanitizeAttributes} written straight into `target` (a span's attributes), so setting
 * attributes on a span allocates no intermediate object.
 *
 * @example
 * assignSanitized(node.attributes, { tool_name: 'read', latency_ms: 3 }, options);
 */
export function assignSanitized(
  target: TraceAttributes,
  attributes: Record<string, unknown>,
  options: SanitizeOptions,
): TraceAttributes {
  for (const key in attributes) {
    const value = attributes[key];
    if (value === null || value === undefined) continue;
    // Span attributes are nearly always small numbers, flags and names: no detour for them.
    if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
      target[key] = value;
      continue;
    }
    if (typeof value === 'string') {
      target[key] = sanitizeText(value, options);
      continue;
    }
    const clean = toTraceValue(value, options);
    if (clean !== undefined) target[key] = clean;
  }
  return target;
}

/**
 * Any value as trace JSON with secrets removed by key and by value: cycles, throwing getters,
 * errors, buffers, maps and sets handled; depth capped at {@link MAX_DEPTH}. Returns undefined for
 * what JSON cannot hold (functions, symbols, undefined).
 *
 * @example
 * toTraceValue({ headers: { Authorization: 'Bearer x' } }, options);
 * // { headers: { Authorization: '[REDACTED:key:…]' } }
 */
export function toTraceValue(value: unknown, options: SanitizeOptions): TraceJsonValue | undefined {
  // A string, the usual payload, needs no cycle bookkeeping.
  if (typeof value === 'string') return sanitizeText(value, options);
  return convert(value, options, 0, new WeakSet());
}

function convert(
  value: unknown,
  options: SanitizeOptions,
  depth: number,
  ancestors: WeakSet<object>,
): TraceJsonValue | undefined {
  switch (typeof value) {
    case 'string':
      return sanitizeText(value, options);
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return null;
  const object = value as object;
  if (depth >= MAX_DEPTH) return '[depth limit]';
  if (ancestors.has(object)) return '[circular]';
  if (object instanceof Date) {
    return Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString();
  }
  if (ArrayBuffer.isView(object) || object instanceof ArrayBuffer) {
    // Bytes are not text a person reads in a trace; their size is what helps.
    return `[binary ${object.byteLength} bytes]`;
  }
  ancestors.add(object);
  try {
    if (object instanceof Error) {
      return {
        name: sanitizeText(object.name, options),
        message: sanitizeText(object.message, options),
      };
    }
    if (Array.isArray(object) || object instanceof Set) {
      return convertArray([...object], options, depth, ancestors);
    }
    const entries: Array<[string, unknown]> =
      object instanceof Map
        ? [...object.entries()].map(([k, v]): [string, unknown] => [String(k), v])
        : ownEntries(object);
    const out: Record<string, TraceJsonValue> = {};
    for (const [index, [key, item]] of entries.entries()) {
      if (index >= MAX_ENTRIES) {
        out['[truncated]'] = `${entries.length - MAX_ENTRIES} more entries`;
        break;
      }
      const cleanKey = truncateText(options.redactor.redactText(key), 200);
      if (options.redactor.isSecretKey(key)) {
        out[cleanKey] = options.redactor.marker('key', fingerprintSource(item));
        continue;
      }
      const clean = convert(item, options, depth + 1, ancestors);
      if (clean !== undefined) out[cleanKey] = clean;
    }
    return out;
  } finally {
    ancestors.delete(object);
  }
}

function convertArray(
  items: unknown[],
  options: SanitizeOptions,
  depth: number,
  ancestors: WeakSet<object>,
): TraceJsonValue[] {
  // Headers as pairs (`[["authorization", "Bearer …"]]`) carry their key in the first slot.
  const first = items[0];
  if (items.length === 2 && typeof first === 'string' && options.redactor.isSecretKey(first)) {
    return [
      sanitizeText(first, options),
      options.redactor.marker('key', fingerprintSource(items[1])),
    ];
  }
  const out = items
    .slice(0, MAX_ENTRIES)
    .map((item) => convert(item, options, depth + 1, ancestors) ?? null);
  if (items.length > MAX_ENTRIES) out.push(`[${items.length - MAX_ENTRIES} more items]`);
  return out;
}

/** Own enumerable properties; a getter that throws becomes a marker instead of an exception. */
function ownEntries(object: object): Array<[string, unknown]> {
  return Object.keys(object).map((key): [string, unknown] => {
    try {
      return [key, (object as Record<string, unknown>)[key]];
    } catch {
      return [key, '[unreadable]'];
    }
  });
}

/** What a key-redacted value is fingerprinted by: equal secrets give equal markers. */
function fingerprintSource(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
