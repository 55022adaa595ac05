import type { LogFields, LogLevel } from '@tiny-claw/core';
import type { LogFormatSetting } from '../settings/settings-schema.js';

/** One log line before it is written. */
export interface LogRecord {
  time: Date;
  level: LogLevel;
  message: string;
  fields?: LogFields | undefined;
}

/** The members every JSON line starts with; a field of the same name is written as `field_<name>`. */
const RESERVED = new Set(['time', 'level', 'msg']);
/** Characters that would end or garble a line: controls (tab aside), C1 controls, line separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters.
const LINE_BREAKING = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;
/** Characters that make a text value need quotes: line breakers, spaces, quotes, `=`, `\`. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters.
const NEEDS_QUOTES = /[\s"=\\\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Format one log record as a single line (without its newline). `text`:
 * `<ISO time> <LEVEL> <message> key=value…`, the message's line breaks and control characters
 * escaped (`\n`, `\u001b`), a value quoted as JSON when it is empty or holds spaces, quotes, `=`
 * or a backslash, `undefined` values left out. `json`: `{"time","level","msg",…fields}`.
 *
 * @example
 * formatLogLine('text', { time, level: 'info', message: 'run finished', fields: { steps: 2, stop_reason: 'final' } });
 * // '2026-01-01T00:00:00.000Z INFO run finished steps=2 stop_reason=final'
 */
export function formatLogLine(format: LogFormatSetting, record: LogRecord): string {
  const fields = Object.entries(record.fields ?? {}).filter(
    (entry): entry is [string, string | number | boolean | null] => entry[1] !== undefined,
  );
  if (format === 'json') {
    const line: Record<string, unknown> = {
      time: record.time.toISOString(),
      level: record.level,
      msg: record.message,
    };
    for (const [key, value] of fields) line[RESERVED.has(key) ? `field_${key}` : key] = value;
    return escapeLineBreaking(JSON.stringify(line));
  }
  const head = `${record.time.toISOString()} ${record.level.toUpperCase()} ${escapeLineBreaking(record.message)}`;
  return [head, ...fields.map(([key, value]) => `${key}=${textValue(value)}`)].join(' ');
}

function textValue(value: string | number | boolean | null): string {
  if (typeof value !== 'string') return String(value);
  if (value !== '' && !NEEDS_QUOTES.test(value)) return value;
  return escapeLineBreaking(JSON.stringify(value));
}

/** `\n` and `\r` as themselves, other line breakers as `\uXXXX` (valid inside JSON strings too). */
function escapeLineBreaking(text: string): string {
  return text.replace(LINE_BREAKING, (char) => {
    if (char === '\n') return '\\n';
    if (char === '\r') return '\\r';
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
