import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitlinksOf, indexGitlinks } from './git-index.js';

// The gitlinks read from an index must be exactly those git itself lists with
// `git ls-files --stage` (mode 160000), in every index version git writes.

const hasGit = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let repo: string;
const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, env, encoding: 'utf8' });
}

function gitlinksByGit(): string[] {
  return git('ls-files', '--stage')
    .split('\n')
    .filter((line) => line.startsWith('160000 '))
    .map((line) => line.split('\t')[1] as string);
}

beforeEach(async () => {
  repo = await mkdtemp(path.join(tmpdir(), 'tc-git-index-'));
  git('init', '-q');
  // Long, shared-prefix and non-ASCII paths exercise padding and v4 prefix compression.
  for (const name of ['a.txt', 'dir/deeper/file-with-a-long-name.txt', 'dir/ü-ñame.txt']) {
    await mkdir(path.dirname(path.join(repo, name)), { recursive: true });
    await writeFile(path.join(repo, name), name);
  }
  git('add', '.');
  git('commit', '-q', '-m', 'x');
  const commit = git('rev-parse', 'HEAD').trim();
  for (const link of ['vendor/lib', 'vendor/lib-two', 'z']) {
    git('update-index', '--add', '--cacheinfo', `160000,${commit},${link}`);
  }
});

afterEach(async () => {
  await rm(repo, { recursive: true, force: true });
});

describe.skipIf(!hasGit)('gitlinks from a git index', () => {
  it.each(['2', '3', '4'])('index version %s: the same gitlinks git lists', async (version) => {
    git('update-index', '--index-version', version);
    if (version === '3') git('update-index', '--skip-worktree', 'a.txt');
    const buffer = await readFile(path.join(repo, '.git', 'index'));
    expect(buffer.readUInt32BE(4)).toBe(Number(version));
    expect(gitlinksOf(buffer, 20)).toEqual({ kind: 'read', gitlinks: gitlinksByGit() });
    expect(gitlinksByGit()).toEqual(['vendor/lib', 'vendor/lib-two', 'z']);
  });

  it('a split index: the gitlinks of its shared part count too', async () => {
    git('update-index', '--split-index');
    git('update-index', '--add', '--cacheinfo', `160000,${git('rev-parse', 'HEAD').trim()},late`);
    const read = await indexGitlinks(path.join(repo, '.git'), path.join(repo, '.git'));
    expect(read.kind).toBe('read');
    expect(read.kind === 'read' ? [...read.gitlinks].sort() : []).toEqual(
      [...gitlinksByGit()].sort(),
    );
  });

  it('no index, or one that is not an index, is said so instead of read as empty', async () => {
    await rm(path.join(repo, '.git', 'index'));
    expect(await indexGitlinks(path.join(repo, '.git'), path.join(repo, '.git'))).toEqual({
      kind: 'absent',
    });
    expect(gitlinksOf(Buffer.from('not an index at all'), 20).kind).toBe('unreadable');
    const truncated = Buffer.concat([Buffer.from('DIRC'), Buffer.from([0, 0, 0, 2, 0, 0, 0, 9])]);
    expect(gitlinksOf(truncated, 20)).toEqual({
      kind: 'unreadable',
      why: 'the index ends inside an entry',
    });
  });
});
