/** Severity of a log line, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * Structured fields of one log line, written after its message (`key=value` in text, JSON members
 * in JSON). An `undefined` value is left out. Never put prompt, answer, message or tool-argument
 * text here: log lines are shipped to log stacks that many people read.
 *
 * @example
 * logger.info('run finished', { run_id: result.runId, steps: result.steps, cost_usd: result.costUsd });
 */
export type LogFields = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** Minimal structured logger the packages log through; runtime supplies the real one. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** A logger that drops everything. */
export const nullLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
