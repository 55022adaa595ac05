import { lstat, open, readdir, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * What sits at `<workdir>/.git`, as git's repository discovery sees it, and the git directories it
 * leads to.
 */
export type DotGit =
  | { readonly kind: 'absent' }
  /** A directory git would not take for a repository (empty, or left from an earlier command). */
  | { readonly kind: 'not-a-repository'; readonly empty: boolean }
  | { readonly kind: 'directory'; readonly gitDir: string }
  | { readonly kind: 'symlink'; readonly target: string; readonly gitDir: string }
  /** A `gitdir:` file (linked worktrees, submodules); `gitDir` is its resolved target. */
  | { readonly kind: 'gitfile'; readonly gitDir?: string }
  | { readonly kind: 'other' };

/** Bytes read from a `.git` file or a `commondir` file. */
const MAX_POINTER_BYTES = 64 * 1024;

/**
 * The files in a git directory through which git runs programs or reads configuration that can
 * name programs: the configuration (`config`, `config.worktree`), the redirect to another git
 * directory (`commondir`), the hooks, and the git directories of linked worktrees and submodules.
 */
export const GIT_CONTROL_ENTRIES: readonly string[] = [
  'config',
  'config.worktree',
  'commondir',
  'hooks',
  'worktrees',
  'modules',
];

export async function realOrUndefined(target: string): Promise<string | undefined> {
  try {
    return await realpath(target);
  } catch {
    return undefined;
  }
}

/**
 * Where `target` really is, even when it does not exist: the real path of its deepest existing
 * ancestor, with the rest appended.
 *
 * @example
 * await realLocation('/link-to-repo/missing/file'); // '/repo/missing/file'
 */
export async function realLocation(target: string): Promise<string> {
  const rest: string[] = [];
  let current = path.resolve(target);
  for (;;) {
    const real = await realOrUndefined(current);
    if (real !== undefined) return path.join(real, ...rest.reverse());
    const parent = path.dirname(current);
    if (parent === current) return path.resolve(target);
    rest.push(path.basename(current));
    current = parent;
  }
}

/**
 * The first `limit` bytes of `file` as UTF-8, or undefined when it cannot be read.
 *
 * @example
 * await readHead('/repo/.git', 4096); // 'gitdir: ../.git/worktrees/a\n'
 */
export async function readHead(
  file: string,
  limit = MAX_POINTER_BYTES,
): Promise<string | undefined> {
  try {
    const handle = await open(file, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(limit), 0, limit, 0);
      return buffer.toString('utf8', 0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * Whether `dir` is a git directory the way git decides it: a `HEAD` holding a symbolic ref or an
 * object id, and `objects` and `refs` directories (in the common directory, when `commondir`
 * names one).
 *
 * @example
 * await isGitDirectory('/repo/.git'); // true
 */
export async function isGitDirectory(dir: string): Promise<boolean> {
  const head = await readHead(path.join(dir, 'HEAD'), 256);
  if (head === undefined) return false;
  if (!/^(ref: refs\/|[0-9a-f]{40}\s*$|[0-9a-f]{64}\s*$)/.test(head)) {
    const link = await readlink(path.join(dir, 'HEAD')).catch(() => undefined);
    if (link === undefined || !link.startsWith('refs/')) return false;
  }
  const pointer = (await readHead(path.join(dir, 'commondir'), 4096))?.trim();
  const common = pointer ? path.resolve(dir, pointer) : dir;
  const [objects, refs] = await Promise.all([
    stat(path.join(common, 'objects')).catch(() => undefined),
    stat(path.join(common, 'refs')).catch(() => undefined),
  ]);
  return objects?.isDirectory() === true && refs?.isDirectory() === true;
}

/**
 * The `gitdir:` target of a `.git` file, resolved against the file's directory, or undefined.
 *
 * @example
 * await gitfileTarget('/repo/sub/.git'); // '/repo/.git/modules/sub'
 */
export async function gitfileTarget(file: string): Promise<string | undefined> {
  const text = await readHead(file);
  const match = /^gitdir: ?(.+?)\r?\n?$/.exec(text?.split('\n')[0] ?? '');
  if (!match?.[1]) return undefined;
  return realOrUndefined(path.resolve(path.dirname(file), match[1]));
}

/**
 * What `<dir>/.git` is.
 *
 * @example
 * await dotGitOf('/repo'); // { kind: 'directory', gitDir: '/repo/.git' }
 */
export async function dotGitOf(dir: string): Promise<DotGit> {
  const dotGit = path.join(dir, '.git');
  const info = await lstat(dotGit).catch(() => undefined);
  if (info === undefined) return { kind: 'absent' };
  if (info.isSymbolicLink()) {
    const target = await readlink(dotGit);
    const real = await realOrUndefined(dotGit);
    const realInfo = real === undefined ? undefined : await stat(real).catch(() => undefined);
    if (real !== undefined && realInfo?.isDirectory() && (await isGitDirectory(real)))
      return { kind: 'symlink', target, gitDir: real };
    return { kind: 'other' };
  }
  if (info.isFile()) {
    const gitDir = await gitfileTarget(dotGit);
    return gitDir === undefined ? { kind: 'gitfile' } : { kind: 'gitfile', gitDir };
  }
  if (!info.isDirectory()) return { kind: 'other' };
  if (await isGitDirectory(dotGit)) return { kind: 'directory', gitDir: dotGit };
  const entries = await readdir(dotGit).catch(() => ['?']);
  return { kind: 'not-a-repository', empty: entries.length === 0 };
}

/**
 * The git directory a `commondir` file in `gitDir` points to, or undefined.
 *
 * @example
 * await commonDirOf('/repo/.git/worktrees/a'); // '/repo/.git'
 */
export async function commonDirOf(gitDir: string): Promise<string | undefined> {
  const pointer = (await readHead(path.join(gitDir, 'commondir'), 4096))?.trim();
  return pointer ? realOrUndefined(path.resolve(gitDir, pointer)) : undefined;
}

/**
 * A path's identity (device and inode, without following a final symlink), or undefined when
 * nothing is there.
 *
 * @example
 * await identityOf('/repo/.git'); // '2049:131'
 */
export async function identityOf(target: string): Promise<string | undefined> {
  const info = await lstat(target).catch(() => undefined);
  return info === undefined ? undefined : `${info.dev}:${info.ino}`;
}

/**
 * Whether anything (even a dangling symlink) is at `target`.
 *
 * @example
 * await exists('/repo/.git'); // true
 */
export async function exists(target: string): Promise<boolean> {
  return (await lstat(target).catch(() => undefined)) !== undefined;
}

/**
 * The git directory `<dir>/.git` leads to, when it leads to a repository.
 *
 * @example
 * repositoryOf(await dotGitOf('/repo')); // '/repo/.git'
 */
export function repositoryOf(dotGit: DotGit): string | undefined {
  switch (dotGit.kind) {
    case 'directory':
    case 'symlink':
      return dotGit.gitDir;
    case 'gitfile':
      return dotGit.gitDir;
    default:
      return undefined;
  }
}
