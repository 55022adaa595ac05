import { join } from 'node:path';
import { validateSessionKey } from '@tiny-claw/core/utils';

/**
 * `<stateDir>/sessions/<key>`, after `validateSessionKey`: the one place a session's files live in
 * a state directory (its memory, plan, traces, approvals and paused runs).
 *
 * @throws ConfigurationError when `key` is not a single safe directory name.
 *
 * @example
 * sessionDirectory('/state', 'cli-1a2b3c4d5e6f-default'); // '/state/sessions/cli-1a2b3c4d5e6f-default'
 */
export function sessionDirectory(stateDir: string, key: string): string {
  return join(stateDir, 'sessions', validateSessionKey(key));
}
