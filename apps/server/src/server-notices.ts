import type { LogFields } from '@tiny-claw/core';
import { createStderrLogger, type LogFormatSetting } from '@tiny-claw/runtime';

/** Levels of the command's own notices. */
export type NoticeLevel = 'info' | 'warn' | 'error';

/**
 * Writes the command's own notices (the listening line, settings warnings, shutdown) whatever
 * `TINY_CLAW_LOG_LEVEL` says: as the plain line it is with `TINY_CLAW_LOG_FORMAT=text`, and as a
 * log object (with its fields) with `json`, so a JSON log stack gets nothing but JSON lines.
 *
 * @example
 * const notice = serverNotices(settings.logFormat, proc.stderr);
 * notice('info', 'tiny-claw-server: stopped');
 */
export function serverNotices(
  format: LogFormatSetting,
  write: (text: string) => void,
): (level: NoticeLevel, text: string, fields?: LogFields) => void {
  if (format === 'text') return (_level, text) => write(`${text}\n`);
  const logger = createStderrLogger('debug', { format, write });
  return (level, text, fields) => logger[level](text, fields);
}
