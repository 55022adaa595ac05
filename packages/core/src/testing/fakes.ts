import type { SessionRef } from '../session/session-ref.js';

/**
 * A session bound to `workdir`, for tests that run tools or the loop without resolving one.
 *
 * @example
 * const session = testSession('/tmp/w');
 */
export function testSession(workdir = '/tmp/tiny-claw-test', name = 'default'): SessionRef {
  return {
    key: `cli-000000000000-${name}`,
    source: 'cli',
    externalId: name,
    displayName: name,
    workdir,
  };
}
