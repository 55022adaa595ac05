import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionDirectory } from './session-directory.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-claw-session-dir-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 3 });
});

describe('sessionDirectory', () => {
  it.each(['../escape', '../../x', 'a/b', '..', '', 'UPPER', 'a\0b'])(
    'refuses a key that is not a single safe name: %j',
    (key) => {
      expect(() => sessionDirectory(root, key)).toThrow(ConfigurationError);
    },
  );

  it('places a session under <stateDir>/sessions/<key> and touches nothing', async () => {
    expect(sessionDirectory(root, 'cli-1a2b3c4d5e6f-default')).toBe(
      join(root, 'sessions', 'cli-1a2b3c4d5e6f-default'),
    );
    await expect(stat(join(root, 'sessions'))).rejects.toThrow(/ENOENT/);
  });
});
