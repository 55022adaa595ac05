import { join, resolve } from 'node:path';
import { ConfigurationError } from '@tiny-claw/core';
import { sessionDirectory } from '@tiny-claw/workspace/files';

/**
 * A trace id is one file name: letters, digits, `-` and `_` only.
 *
 * @example
 * TRACE_ID_PATTERN.test('5f0c2a'); // true
 */
export const TRACE_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * `<stateDir>/sessions/<key>/traces`, after the session key is checked to be one safe directory
 * name.
 *
 * @throws ConfigurationError when `sessionKey` is not a valid key.
 *
 * @example
 * traceDirectory('/state', 'cli-1a2b3c4d5e6f-default'); // '/state/sessions/cli-1a2b3c4d5e6f-default/traces'
 */
export function traceDirectory(stateDir: string, sessionKey: string): string {
  return join(sessionDirectory(resolve(stateDir), sessionKey), 'traces');
}

/**
 * `<stateDir>/sessions/<key>/traces/<traceId>.json`.
 *
 * @throws ConfigurationError when the key or the id could escape the traces directory.
 *
 * @example
 * tracePath('/state', 'cli-1a2b3c4d5e6f-default', '5f0c…'); // '/state/sessions/…/traces/5f0c….json'
 */
export function tracePath(stateDir: string, sessionKey: string, traceId: string): string {
  if (!TRACE_ID_PATTERN.test(traceId)) {
    throw new ConfigurationError(
      `Invalid trace id ${JSON.stringify(traceId.slice(0, 140))}: letters, digits, "-" and "_" only.`,
    );
  }
  return join(traceDirectory(stateDir, sessionKey), `${traceId}.json`);
}
