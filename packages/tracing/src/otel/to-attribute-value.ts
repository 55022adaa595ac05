import type { Attributes, AttributeValue } from '@opentelemetry/api';
import type { TraceAttributes, TraceJsonValue } from '../trace-schema.js';

/**
 * A trace attribute value as an OTel attribute value. OTel only takes primitives and homogeneous
 * primitive arrays, so nested replay payloads travel as their JSON text; `null` has no OTel form and
 * is dropped (`undefined`).
 *
 * @example
 * toAttributeValue(['path', 'limit']); // → ['path', 'limit']
 * toAttributeValue({ path: 'a.txt' }); // → '{"path":"a.txt"}'
 * toAttributeValue(null); // → undefined
 */
export function toAttributeValue(value: TraceJsonValue): AttributeValue | undefined {
  if (value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item === 'string')) return value as string[];
    if (value.every((item) => typeof item === 'number' && Number.isFinite(item))) {
      return value as number[];
    }
    if (value.every((item) => typeof item === 'boolean')) return value as boolean[];
  }
  return JSON.stringify(value);
}

/**
 * Copies `attributes` into `target` as `<prefix><key>`, skipping the keys in `skip` and values with
 * no OTel form.
 *
 * @example
 * const out = {};
 * copyPrefixed(out, { total_tokens: 12, model: 'm' }, 'tiny_claw.', new Set(['model']));
 * // out → { 'tiny_claw.total_tokens': 12 }
 */
export function copyPrefixed(
  target: Attributes,
  attributes: TraceAttributes,
  prefix: string,
  skip: ReadonlySet<string> = new Set(),
): void {
  for (const [key, raw] of Object.entries(attributes)) {
    if (skip.has(key)) continue;
    const value = toAttributeValue(raw);
    if (value !== undefined) target[`${prefix}${key}`] = value;
  }
}
