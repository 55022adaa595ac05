import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isInside, type PathGuardResult, resolveInWorkdir } from './path-guard.js';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-guard-')));
  root = path.join(base, 'w');
  outside = path.join(base, 's');
  await mkdir(path.join(root, 'src', 'lib'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(outside, 'secret'), 'TOP-SECRET');
  await writeFile(path.join(root, 'src', 'a.txt'), 'hello');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function expectError(result: PathGuardResult, errorType: string): string {
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error('unreachable');
  expect(result.errorType).toBe(errorType);
  return result.error;
}

describe('isInside compares by path component', () => {
  it('accepts the root and its descendants', () => {
    expect(isInside('/srv/app', '/srv/app')).toBe(true);
    expect(isInside('/srv/app', '/srv/app/src/a.ts')).toBe(true);
    expect(isInside('/srv/app/', '/srv/app/..foo')).toBe(true);
  });
  it('refuses a sibling whose name shares the prefix', () => {
    expect(isInside('/srv/app', '/srv/app2')).toBe(false);
    expect(isInside('/srv/app', '/srv/app2/x')).toBe(false);
    expect(isInside('/srv/app', '/srv')).toBe(false);
    expect(isInside('/srv/app', '/srv/app/../app2')).toBe(false);
  });
});

describe('resolveInWorkdir confinement', () => {
  it('refuses ../ escapes', async () => {
    for (const input of ['../s/secret', '../../../../etc/passwd', 'src/../../s/secret']) {
      const error = expectError(
        await resolveInWorkdir(root, input, { access: 'read' }),
        'path_outside_root',
      );
      expect(error).toContain('must stay under the workdir');
      expect(error).toContain('must stay under the configured root');
    }
  });

  it('refuses absolute paths outside the workdir', async () => {
    for (const input of ['/etc/passwd', path.join(outside, 'secret'), `${root}/../s/secret`]) {
      expectError(await resolveInWorkdir(root, input, { access: 'read' }), 'path_outside_root');
    }
  });

  it('accepts absolute paths inside the workdir', async () => {
    const result = await resolveInWorkdir(root, path.join(root, 'src', 'a.txt'), {
      access: 'read',
    });
    expect(result).toEqual({
      ok: true,
      path: path.join(root, 'src', 'a.txt'),
      relative: 'src/a.txt',
    });
  });

  it('accepts relative paths, the workdir itself and missing targets', async () => {
    expect(await resolveInWorkdir(root, 'src/a.txt', { access: 'read' })).toMatchObject({
      ok: true,
      relative: 'src/a.txt',
    });
    expect(await resolveInWorkdir(root, '.', { access: 'read' })).toMatchObject({
      ok: true,
      path: root,
      relative: '.',
    });
    expect(await resolveInWorkdir(root, 'new/dir/file.ts', { access: 'write' })).toMatchObject({
      ok: true,
      path: path.join(root, 'new', 'dir', 'file.ts'),
    });
  });

  it('refuses a sibling-prefix directory (/tmp/a vs /tmp/ab)', async () => {
    const a = path.join(base, 'a');
    const ab = path.join(base, 'ab');
    await mkdir(a);
    await mkdir(ab);
    await writeFile(path.join(ab, 'x'), 'x');
    expectError(
      await resolveInWorkdir(a, path.join(ab, 'x'), { access: 'read' }),
      'path_outside_root',
    );
    expectError(await resolveInWorkdir(a, '../ab/x', { access: 'read' }), 'path_outside_root');
  });

  it('refuses a symlink from inside to outside', async () => {
    await symlink(outside, path.join(root, 'link'));
    await symlink('../s/secret', path.join(root, 'rel-link'));
    expectError(
      await resolveInWorkdir(root, 'link/secret', { access: 'read' }),
      'path_outside_root',
    );
    expectError(await resolveInWorkdir(root, 'rel-link', { access: 'read' }), 'path_outside_root');
    expectError(
      await resolveInWorkdir(root, 'link/new.txt', { access: 'write' }),
      'path_outside_root',
    );
  });

  it('refuses a symlink chain that ends outside', async () => {
    await symlink(outside, path.join(root, 'c'));
    await symlink(path.join(root, 'c'), path.join(root, 'b'));
    await symlink(path.join(root, 'b'), path.join(root, 'a'));
    expectError(await resolveInWorkdir(root, 'a/secret', { access: 'read' }), 'path_outside_root');
  });

  it('accepts a symlink from inside to inside', async () => {
    await symlink(path.join(root, 'src', 'lib'), path.join(root, 'lib'));
    await writeFile(path.join(root, 'src', 'lib', 'x.ts'), 'x');
    expect(await resolveInWorkdir(root, 'lib/x.ts', { access: 'write' })).toEqual({
      ok: true,
      path: path.join(root, 'src', 'lib', 'x.ts'),
      relative: 'src/lib/x.ts',
    });
  });

  it('refuses a dangling symlink pointing outside for write', async () => {
    await symlink(path.join(outside, 'newfile'), path.join(root, 'new'));
    await symlink(path.join(outside, 'newdir'), path.join(root, 'newdir'));
    expectError(await resolveInWorkdir(root, 'new', { access: 'write' }), 'path_outside_root');
    expectError(
      await resolveInWorkdir(root, 'newdir/deep/file.txt', { access: 'write' }),
      'path_outside_root',
    );
  });

  it('reports a symlink loop as an error without hanging', async () => {
    await symlink(path.join(root, 'l2'), path.join(root, 'l1'));
    await symlink(path.join(root, 'l1'), path.join(root, 'l2'));
    const error = expectError(
      await resolveInWorkdir(root, 'l1/x', { access: 'write' }),
      'invalid_path',
    );
    expect(error).toMatch(/symlink loop/);
  });

  it('treats URL-ish and percent-encoded input literally', async () => {
    expect(
      await resolveInWorkdir(root, '%2e%2e/%2e%2e/etc/passwd', { access: 'read' }),
    ).toMatchObject({
      ok: true,
      relative: '%2e%2e/%2e%2e/etc/passwd',
    });
    expect(await resolveInWorkdir(root, 'file:///etc/passwd', { access: 'read' })).toMatchObject({
      ok: true,
      path: path.join(root, 'file:', 'etc', 'passwd'),
    });
  });
});

describe('resolveInWorkdir write protection', () => {
  it('refuses writing .git/config and other .git spellings', async () => {
    await mkdir(path.join(root, '.git'));
    await writeFile(path.join(root, '.git', 'config'), '[core]\n');
    for (const input of [
      '.git/config',
      '.git',
      '.GIT/config',
      '.git./config',
      '.git /config',
      'sub/.git/hooks/pre-commit',
      `${root}/.git/hooks/pre-commit`,
    ]) {
      const error = expectError(
        await resolveInWorkdir(root, input, { access: 'write' }),
        'protected_path',
      );
      expect(error).toContain('.git');
    }
    // Reads of git internals stay allowed.
    expect(await resolveInWorkdir(root, '.git/config', { access: 'read' })).toMatchObject({
      ok: true,
    });
  });

  it('refuses writes through a symlink that resolves into .git', async () => {
    await mkdir(path.join(root, '.git'));
    await symlink(path.join(root, '.git'), path.join(root, 'innocent'));
    expectError(
      await resolveInWorkdir(root, 'innocent/config', { access: 'write' }),
      'protected_path',
    );
  });

  it('refuses writes into the target of a .git gitdir file', async () => {
    const gitdir = path.join(root, 'gd');
    await mkdir(path.join(gitdir, 'hooks'), { recursive: true });
    await writeFile(path.join(root, '.git'), 'gitdir: ./gd\n');
    const error = expectError(
      await resolveInWorkdir(root, 'gd/hooks/post-checkout', { access: 'write' }),
      'protected_path',
    );
    expect(error).toContain('git dir');
    expectError(
      await resolveInWorkdir(root, path.join(gitdir, 'config'), { access: 'write' }),
      'protected_path',
    );
    expect(
      await resolveInWorkdir(root, 'gd/hooks/post-checkout', { access: 'read' }),
    ).toMatchObject({
      ok: true,
    });
    expect(await resolveInWorkdir(root, 'src/a.txt', { access: 'write' })).toMatchObject({
      ok: true,
    });
  });

  it('refuses writes into a protected state dir even if it does not exist yet', async () => {
    const stateDir = path.join(root, '.tiny-claw');
    for (const input of ['.tiny-claw/approvals/x.json', '.tiny-claw', './.tiny-claw/new']) {
      const error = expectError(
        await resolveInWorkdir(root, input, { access: 'write', protectedPaths: [stateDir] }),
        'protected_path',
      );
      expect(error).toContain('.tiny-claw');
    }
    // Relative protected paths are resolved against the workdir as well.
    expectError(
      await resolveInWorkdir(root, '.tiny-claw/a', {
        access: 'write',
        protectedPaths: ['.tiny-claw'],
      }),
      'protected_path',
    );
    expect(
      await resolveInWorkdir(root, '.tiny-claw-notes.md', {
        access: 'write',
        protectedPaths: [stateDir],
      }),
    ).toMatchObject({ ok: true });
  });
});

describe('resolveInWorkdir refuses settings paths for reads and writes', () => {
  let configDir: string;
  let envFile: string;

  beforeEach(async () => {
    configDir = path.join(root, 'xdg', 'tiny-claw');
    envFile = path.join(root, 'team.env');
    await mkdir(configDir, { recursive: true });
    await writeFile(path.join(configDir, '.env'), 'OPENAI_API_KEY=sk-config\n');
    await writeFile(envFile, 'OPENAI_API_KEY=sk-team\n');
  });

  const guard = (input: string, access: 'read' | 'write' = 'read') =>
    resolveInWorkdir(root, input, { access, settingsPaths: [configDir, envFile] });

  it('refuses a settings file and everything in a settings folder, for reads and writes alike', async () => {
    for (const access of ['read', 'write'] as const) {
      for (const input of [
        'team.env',
        'xdg/tiny-claw/.env',
        'xdg/tiny-claw',
        `${configDir}/.env`,
      ]) {
        const error = expectError(await guard(input, access), 'protected_path');
        expect(error).toContain('tiny-claw keeps its own settings');
        expect(error).toContain('can neither read nor write');
      }
    }
  });

  it('refuses files that do not exist yet inside a settings folder (mcp.json, rules.json)', async () => {
    for (const input of ['xdg/tiny-claw/mcp.json', 'xdg/tiny-claw/new/rules.json']) {
      expectError(await guard(input, 'write'), 'protected_path');
    }
    const missingDir = path.join(root, 'other-xdg', 'tiny-claw');
    expectError(
      await resolveInWorkdir(root, 'other-xdg/tiny-claw/.env', {
        access: 'write',
        settingsPaths: [missingDir],
      }),
      'protected_path',
    );
  });

  it('refuses them through .. and through a symlink, to the file or to a folder above it', async () => {
    await symlink(envFile, path.join(root, 'src', 'innocent.txt'));
    await symlink(path.join(root, 'xdg'), path.join(root, 'config-link'));
    for (const input of [
      'src/../team.env',
      'src/lib/../../xdg/tiny-claw/.env',
      'src/innocent.txt',
      'config-link/tiny-claw/.env',
    ]) {
      expectError(await guard(input), 'protected_path');
    }
  });

  it('refuses a hard link to a settings file, or to a file in a settings folder', async () => {
    await link(envFile, path.join(root, 'src', 'copy.txt'));
    await link(path.join(configDir, '.env'), path.join(root, 'src', 'copy2.txt'));
    const error = expectError(await guard('src/copy.txt'), 'protected_path');
    expect(error).toContain(`a hard link to ${envFile}`);
    expectError(await guard('src/copy2.txt'), 'protected_path');
  });

  it('leaves the rest of the workdir alone, including names that share a prefix', async () => {
    await writeFile(path.join(root, 'team.env.example'), 'OPENAI_API_KEY=\n');
    await mkdir(path.join(root, 'xdg', 'tiny-claw-notes'));
    for (const input of ['src/a.txt', 'team.env.example', 'xdg', 'xdg/tiny-claw-notes/x']) {
      expect(await guard(input)).toMatchObject({ ok: true });
    }
  });
});

describe('resolveInWorkdir validates input before any fs call', () => {
  // The workdir does not exist: if any fs call ran first, the error would be about the workdir.
  const missingWorkdir = '/definitely/not/a/real/workdir';

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['NUL', 'a\u0000.txt'],
    ['newline', 'a.txt\nrm -rf /'],
    ['tab', 'a\tb'],
    ['carriage return', 'a\rb'],
    ['escape', 'a\u001b[31mb'],
    ['DEL', 'a\u007fb'],
    ['long component', 'a'.repeat(256)],
    ['long multibyte component', 'é'.repeat(128)],
    ['over 4096 characters', 'ab/'.repeat(1400)],
  ])('rejects %s', async (_name, input) => {
    const error = expectError(
      await resolveInWorkdir(missingWorkdir, input, { access: 'read' }),
      'invalid_path',
    );
    expect(error).toMatch(/^invalid path: /);
    expect(error).not.toContain('workdir cannot be resolved');
  });

  it('reports a missing workdir as workdir_unavailable, not as a bad path', async () => {
    const error = expectError(
      await resolveInWorkdir(missingWorkdir, 'a.txt', { access: 'read' }),
      'workdir_unavailable',
    );
    expect(error).toContain('workdir cannot be resolved');
  });

  it('accepts a component of exactly 255 bytes', async () => {
    expect(await resolveInWorkdir(root, 'a'.repeat(255), { access: 'write' })).toMatchObject({
      ok: true,
    });
  });
});
