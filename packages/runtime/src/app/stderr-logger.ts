import type { LogFields, Logger, LogLevel } from '@tiny-claw/core';
import type { LogFormatSetting } from '../settings/settings-schema.js';
import { formatLogLine } from './log-line.js';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** How {@link createStderrLogger} writes: the line format and where each line goes. */
export interface StderrLoggerOptions {
  /** `text` (default): `<time> <LEVEL> <message> key=value…`; `json`: one object per line. */
  format?: LogFormatSetting;
  /** Receives each line, newline included (default: stderr). */
  write?: (line: string) => void;
}

/**
 * A logger writing one line per call to stderr at or above `level`: `<time> <LEVEL> <message>`
 * followed by its fields as `key=value`, or with `format: 'json'` one
 * `{"time","level","msg",…fields}` object per line, for a log stack. A message spanning lines is
 * still written as one line. The second argument may also be just the `write` function.
 *
 * @example
 * const logger = createStderrLogger('info', { format: 'json' });
 * logger.info('run finished', { run_id: 'run_1', steps: 3 });
 * // {"time":"2026-01-01T00:00:00.000Z","level":"info","msg":"run finished","run_id":"run_1","steps":3}
 */
export function createStderrLogger(
  level: LogLevel,
  options: StderrLoggerOptions | ((line: string) => void) = {},
): Logger {
  const { format = 'text', write = (line: string) => void process.stderr.write(line) } =
    typeof options === 'function' ? { write: options } : options;
  const emit = (at: LogLevel) => (message: string, fields?: LogFields) => {
    if (ORDER[at] < ORDER[level]) return;
    write(`${formatLogLine(format, { time: new Date(), level: at, message, fields })}\n`);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}
