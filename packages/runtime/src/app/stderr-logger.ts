import type { Logger, LogLevel } from '@tiny-claw/core';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * A logger writing `<time> <LEVEL> <message>` lines to stderr at or above `level`.
 *
 * @example
 * const logger = createStderrLogger('warn');
 */
export function createStderrLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const emit = (at: LogLevel) => (message: string) => {
    if (ORDER[at] < ORDER[level]) return;
    write(`${new Date().toISOString()} ${at.toUpperCase()} ${message}\n`);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}
