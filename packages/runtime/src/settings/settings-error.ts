import { ConfigurationError } from '@tiny-claw/core';
import { maskSecret, redactUrlCredentials } from './mask-secret.js';

/**
 * Every problem found while loading settings, one line each in `message` and one entry each in
 * `problems`. Exit code 78 like any {@link ConfigurationError}.
 *
 * @example
 * try { loadSettings(options); } catch (e) { if (e instanceof InvalidSettingsError) e.problems; }
 */
export class InvalidSettingsError extends ConfigurationError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.problems = Object.freeze([...problems]);
  }
}

/**
 * One error line for a bad value: the variable, the value (masked when secret, URL credentials
 * and query values always hidden), what is accepted and, for a value from a settings file, which
 * file to fix.
 *
 * @example
 * invalidValueLine('TINY_CLAW_MAX_TOKENS', 'abc', 'expected an integer from 1 to 1000000', false);
 * // → 'TINY_CLAW_MAX_TOKENS="abc" is invalid: expected an integer from 1 to 1000000.'
 * invalidValueLine('TINY_CLAW_MAX_TOKENS', 'abc', 'expected an integer', false, '/p/.env');
 * // → 'TINY_CLAW_MAX_TOKENS="abc" is invalid: expected an integer; set in /p/.env.'
 */
export function invalidValueLine(
  name: string,
  raw: string,
  expected: string,
  secret: boolean,
  file?: string,
): string {
  const shown = secret ? maskSecret(raw) : redactUrlCredentials(raw);
  const where = file === undefined ? '' : `; set in ${file}`;
  return `${name}=${JSON.stringify(shown)} is invalid: ${expected}${where}.`;
}
