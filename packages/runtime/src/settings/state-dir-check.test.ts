import { symlink } from 'node:fs/promises';
import { ConfigurationError } from '@tiny-claw/core';
import { createTempWorkspace } from '@tiny-claw/testkit';
import { describe, expect, it } from 'vitest';
import { assertStateDirUsable } from './state-dir-check.js';

describe('assertStateDirUsable', () => {
  it.each(['/proc/x', '/proc', '/sys/x/y', '/dev/tiny-claw'])(
    'refuses %s, on a pseudo filesystem, with a configuration error naming the variable',
    async (dir) => {
      const error = await assertStateDirUsable(dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/^TINY_CLAW_STATE_DIR=".*" is invalid: .*pseudo/);
    },
  );

  it('refuses a path that reaches /proc through a symbolic link', async () => {
    const ws = await createTempWorkspace();
    try {
      await symlink('/proc/self', ws.path('link'));
      await expect(assertStateDirUsable(ws.path('link/state'))).rejects.toThrow(/under \/proc/);
    } finally {
      await ws.cleanup();
    }
  });

  it('accepts an ordinary directory, existing or not yet created', async () => {
    const ws = await createTempWorkspace();
    try {
      await expect(assertStateDirUsable(ws.dir)).resolves.toBeUndefined();
      await expect(assertStateDirUsable(ws.path('a/b/c'))).resolves.toBeUndefined();
    } finally {
      await ws.cleanup();
    }
  });
});
