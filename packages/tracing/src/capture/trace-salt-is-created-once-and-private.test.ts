import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempStateDir } from '../__fixtures__/scripted-run.js';
import { loadTraceSalt, TRACE_SALT_FILE } from './trace-salt.js';

let state: Awaited<ReturnType<typeof tempStateDir>>;
beforeEach(async () => {
  state = await tempStateDir();
});
afterEach(async () => {
  await state.cleanup();
});

describe('the per-install trace salt', () => {
  it('is 32 random bytes created 0600 on first use and read back afterwards', async () => {
    const first = loadTraceSalt(state.dir);
    expect(first).toHaveLength(32);
    const path = join(state.dir, TRACE_SALT_FILE);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await readFile(path, 'utf8')).trim()).toBe(Buffer.from(first).toString('hex'));
    expect(Buffer.from(loadTraceSalt(state.dir)).equals(Buffer.from(first))).toBe(true);
  });

  it('differs between installs', () => {
    const other = join(state.dir, 'other');
    expect(Buffer.from(loadTraceSalt(state.dir)).equals(Buffer.from(loadTraceSalt(other)))).toBe(
      false,
    );
  });

  it('is never replaced when the file holds something else', async () => {
    const path = join(state.dir, TRACE_SALT_FILE);
    await writeFile(path, 'not a salt');
    expect(() => loadTraceSalt(state.dir)).toThrow(/does not hold a 64-hex-digit salt/);
    expect(await readFile(path, 'utf8')).toBe('not a salt');
  });
});
