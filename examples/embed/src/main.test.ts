import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const program = fileURLToPath(new URL('./main.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

let cwd: string;
let home: string;
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'tiny-claw-embed-'));
  home = await mkdtemp(join(tmpdir(), 'tiny-claw-embed-home-'));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

describe('the embedding example', () => {
  it('calls the custom tool, answers, refuses the denied tool, and writes no file anywhere', async () => {
    const { OPENAI_API_KEY: _key, ...env } = process.env;
    const run = spawnSync(process.execPath, ['--import', tsx, program], {
      cwd,
      env: { ...env, HOME: home },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')).toEqual([
      'final: 2 + 3 = 5',
      '→ bash {"command":"sed -i s/foo/bar/ *.ts"}',
      '← denied: tool call denied by policy: bash is on the deny list; available tools: add, edit, read',
      'final: bash is not available here, so nothing was renamed.',
      '',
    ]);
    expect(await readdir(cwd)).toEqual([]);
    expect(await readdir(home)).toEqual([]);
  });
});
