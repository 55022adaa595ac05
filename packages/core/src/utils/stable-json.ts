/**
 * JSON with object keys sorted at every depth, written in one pass (no sorted copy), so equal
 * values serialise (and hash, and compare) equally whatever their key order. Cycles become `"[circular]"`, throwing getters
 * `"[unreadable]"`, bigints strings; what JSON drops (undefined, functions) is dropped.
 *
 * @example
 * stableJson({ b: 1, a: { d: 2, c: 3 } }); // '{"a":{"c":3,"d":2},"b":1}'
 */
export function stableJson(value: unknown): string {
  return write(value, new Set()) ?? 'null';
}

function write(value: unknown, ancestors: Set<object>): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(value.toString());
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const object = value as { toJSON?: unknown };
  if (typeof object.toJSON === 'function') return write(object.toJSON(), ancestors);
  if (ancestors.has(object)) return '"[circular]"';
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      let out = '[';
      for (let i = 0; i < object.length; i += 1) {
        if (i > 0) out += ',';
        out += write(object[i], ancestors) ?? 'null';
      }
      return `${out}]`;
    }
    let out = '{';
    let first = true;
    for (const key of Object.keys(object).sort()) {
      let item: unknown;
      try {
        item = (object as Record<string, unknown>)[key];
      } catch {
        item = '[unreadable]';
      }
      const text = write(item, ancestors);
      if (text === undefined) continue;
      out += `${first ? '' : ','}${JSON.stringify(key)}:${text}`;
      first = false;
    }
    return `${out}}`;
  } finally {
    ancestors.delete(object);
  }
}
