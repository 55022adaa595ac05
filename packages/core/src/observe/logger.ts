/** Severity of a log line, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Minimal structured logger the packages log through; runtime supplies the real one. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A logger that drops everything. */
export const nullLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
