import { readFile, writeFile } from 'node:fs/promises';
import { createTempWorkspace, runCli, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bin } from './__fixtures__/approval-cli.js';

// A trusted folder's .env that changed after `tiny-claw trust`: still used, and the user is told
// once per new content, until they trust the folder again.

let ws: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  ws = await createTempWorkspace({
    'project/.env': 'TINY_CLAW_MAX_TOKENS=111\n',
    'home/.keep': '',
  });
  env = {
    HOME: ws.path('home'),
    XDG_CONFIG_HOME: ws.path('xdg'),
    TINY_CLAW_STATE_DIR: ws.path('state'),
  };
});
afterEach(() => ws.cleanup());

const cli = (args: string[]) =>
  runCli({ bin, args, cwd: ws.path('project'), env, timeoutMs: 60_000 });

const CHANGED = './.env changed since this folder was trusted on';
const occurrences = (text: string, part: string) => text.split(part).length - 1;

async function maxTokens(): Promise<{ value: string; stderr: string }> {
  const result = await cli(['health', '--json']);
  expect(result.code, result.stderr).toBe(0);
  const row = JSON.parse(result.stdout).settings.find(
    (setting: { name: string }) => setting.name === 'TINY_CLAW_MAX_TOKENS',
  );
  return { value: row.value, stderr: result.stderr };
}

describe('a trusted .env that changed since it was trusted', () => {
  it('is still used and reported once per content, until the folder is trusted again', async () => {
    expect((await cli(['trust'])).code).toBe(0);
    expect(await maxTokens()).toEqual({ value: '111', stderr: '' });

    await ws.write('project/.env', 'TINY_CLAW_MAX_TOKENS=222\n');
    const first = await maxTokens();
    expect(first.value).toBe('222');
    expect(occurrences(first.stderr, CHANGED)).toBe(1);
    expect(first.stderr).toContain('tiny-claw still uses it');
    expect(first.stderr).toContain("run 'tiny-claw trust' to accept it (and silence this notice)");
    expect(await maxTokens()).toEqual({ value: '222', stderr: '' });

    await ws.write('project/.env', 'TINY_CLAW_MAX_TOKENS=333\n');
    expect(occurrences((await maxTokens()).stderr, CHANGED)).toBe(1);

    const again = await cli(['trust']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('was already trusted; recorded its .env as it is now');
    expect(await maxTokens()).toEqual({ value: '333', stderr: '' });
  });

  it('is reported once when the folder was trusted before contents were recorded, then recorded', async () => {
    expect((await cli(['trust'])).code).toBe(0);
    const listPath = ws.path('state/trusted-folders.json');
    const list = JSON.parse(await readFile(listPath, 'utf8'));
    // As an older version wrote it: path and date only.
    list.folders = list.folders.map(({ path, trustedAt }: { path: string; trustedAt: string }) => ({
      path,
      trustedAt,
    }));
    await writeFile(listPath, JSON.stringify(list));

    const first = await maxTokens();
    expect(first.value).toBe('111');
    expect(first.stderr).toContain('using ./.env, whose contents were not recorded when');
    expect(first.stderr).toContain('recorded them now, so a later change will be reported');
    expect(await maxTokens()).toEqual({ value: '111', stderr: '' });

    await ws.write('project/.env', 'TINY_CLAW_MAX_TOKENS=444\n');
    expect(occurrences((await maxTokens()).stderr, CHANGED)).toBe(1);
  });
});
