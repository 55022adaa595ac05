import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace, runCli, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The executable runs commands from one bundle through V8's code cache (bin/compile-cache.js).
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

let ws: TempWorkspace;
let cacheDir: string;

beforeEach(async () => {
  ws = await createTempWorkspace({});
  cacheDir = ws.path('cache');
});
afterEach(() => ws.cleanup());

const cli = (args: string[], extra: Record<string, string> = {}) =>
  runCli({
    bin,
    args,
    cwd: ws.dir,
    env: {
      TINY_CLAW_PROVIDER: 'echo',
      TINY_CLAW_STATE_DIR: ws.path('.state'),
      XDG_CACHE_HOME: cacheDir,
      ...extra,
    },
  });

async function cacheFiles(): Promise<string[]> {
  const entries = await readdir(join(cacheDir, 'tiny-claw')).catch(() => []);
  return entries.map((name) => join(cacheDir, 'tiny-claw', name));
}

describe('the code cache of the executable', () => {
  it('is written by the first command and used as it is by the next', async () => {
    const first = await cli(['run', 'hello']);
    expect(first.code).toBe(0);
    const files = await cacheFiles();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.v8cache$/);
    const written = await readFile(files[0] as string);

    const second = await cli(['run', 'hello']);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(await cacheFiles()).toEqual(files);
    expect((await readFile(files[0] as string)).equals(written)).toBe(true);
  });

  it('is replaced when it is damaged, and the command still runs', async () => {
    await cli(['run', 'hello']);
    const [file] = await cacheFiles();
    await writeFile(file as string, 'not a code cache');

    const result = await cli(['run', 'hello']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('hello\n');
    expect(await readFile(file as string, 'utf8')).not.toBe('not a code cache');
  });

  it('is neither read nor written with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    const result = await cli(['run', 'hello'], { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(result.code).toBe(0);
    expect(await cacheFiles()).toEqual([]);
  });

  it('is not needed for --version and --help', async () => {
    expect((await cli(['--version'])).code).toBe(0);
    expect((await cli(['--help'])).code).toBe(0);
    expect(await cacheFiles()).toEqual([]);
  });

  it('does not stop a command when the cache folder cannot be written', async () => {
    await writeFile(cacheDir, 'a file where the cache folder would be');
    const result = await cli(['run', 'hello']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('hello\n');
  });
});
