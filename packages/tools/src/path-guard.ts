import { lstat, open, readdir, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * What the caller intends to do with a path. Writes are additionally denied inside `.git`, a
 * `gitdir:` target and any protected path (such as the state dir); settings paths are denied for
 * both.
 *
 * @example
 * const access: PathAccess = 'write';
 */
export type PathAccess = 'read' | 'write';

/**
 * Why the guard refused a path: the path itself is unusable (`invalid_path`), it leaves the
 * workdir, it is protected (from writes, or — a settings path — from reads and writes alike), or
 * the workdir itself cannot be resolved (then no path works, whatever the caller passes).
 *
 * @example
 * const kind: PathGuardErrorType = 'path_outside_root';
 */
export type PathGuardErrorType =
  | 'invalid_path'
  | 'path_outside_root'
  | 'protected_path'
  | 'workdir_unavailable';

/**
 * Options of {@link resolveInWorkdir}.
 *
 * @example
 * const options: ResolveInWorkdirOptions = { access: 'write', protectedPaths: ['/home/me/.tiny-claw'] };
 */
export interface ResolveInWorkdirOptions {
  access: PathAccess;
  /** Paths (absolute, or relative to the workdir) that must never be written, even if missing. */
  protectedPaths?: readonly string[];
  /**
   * Files and folders (absolute, or relative to the workdir) the agent reads its own settings or
   * trust from — where its API keys are. Refused for reads and writes alike, even when missing,
   * whatever the spelling: through a symlink, `..`, or a hard link to one of their files.
   */
  settingsPaths?: readonly string[];
}

/**
 * Result of {@link resolveInWorkdir}: the canonical absolute path to operate on, or an error
 * message the model can act on.
 *
 * @example
 * const result: PathGuardResult = await resolveInWorkdir('/repo', 'src/a.ts', { access: 'read' });
 * if (result.ok) console.log(result.path, result.relative);
 * else console.log(result.errorType, result.error);
 */
export type PathGuardResult =
  | { ok: true; path: string; relative: string }
  | { ok: false; error: string; errorType: PathGuardErrorType };

/**
 * Limits applied before any filesystem call.
 *
 * @example
 * if (input.length > PATH_LIMITS.maxPathChars) throw new Error('too long');
 */
export const PATH_LIMITS = {
  /** Maximum length of the whole path, in characters. */
  maxPathChars: 4096,
  /** Maximum length of one path component, in UTF-8 bytes (the usual NAME_MAX). */
  maxComponentBytes: 255,
  /** Maximum number of symlinks followed by hand while resolving a missing path (Linux uses 40). */
  maxSymlinkHops: 40,
} as const;

/** Maximum bytes read from a `.git` file when looking for its `gitdir:` line. */
const MAX_GITFILE_BYTES = 64 * 1024;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

function describeChar(ch: string): string {
  switch (ch) {
    case '\0':
      return 'a NUL byte';
    case '\n':
      return 'a newline';
    case '\r':
      return 'a carriage return';
    case '\t':
      return 'a tab';
    default:
      return `control character U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  }
}

/**
 * Validate a path string without touching the filesystem. Returns an error message, or
 * `undefined` when the string is acceptable.
 *
 * @example
 * validatePathInput('src/a.ts'); // undefined
 * validatePathInput('a\u0000b'); // 'invalid path: contains a NUL byte …'
 */
export function validatePathInput(input: unknown): string | undefined {
  if (typeof input !== 'string') {
    return `invalid path: expected a string, got ${input === null ? 'null' : typeof input}`;
  }
  if (input.trim() === '') {
    return 'invalid path: the path is empty; pass a file path relative to the workdir';
  }
  const control = CONTROL_CHARS.exec(input);
  if (control) {
    return `invalid path: contains ${describeChar(control[0])} at index ${control.index}; pass exactly one path without control characters`;
  }
  if (input.length > PATH_LIMITS.maxPathChars) {
    return `invalid path: ${input.length} characters is longer than the ${PATH_LIMITS.maxPathChars}-character limit`;
  }
  for (const component of input.split(/[\\/]/)) {
    const bytes = Buffer.byteLength(component, 'utf8');
    if (bytes > PATH_LIMITS.maxComponentBytes) {
      return `invalid path: a path component is ${bytes} bytes long, over the ${PATH_LIMITS.maxComponentBytes}-byte limit (${component.slice(0, 40)}…)`;
    }
  }
  return undefined;
}

/**
 * True when `candidate` is `root` itself or lies under it, compared by path component (so
 * `/srv/app2` is not inside `/srv/app`). Both paths are normalised lexically; no fs access.
 *
 * @example
 * isInside('/srv/app', '/srv/app/src/a.ts'); // true
 * isInside('/srv/app', '/srv/app2/a.ts'); // false
 */
export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(path.resolve(root), path.resolve(candidate));
  if (rel === '') return true;
  if (path.isAbsolute(rel)) return false;
  return rel !== '..' && !rel.startsWith(`..${path.sep}`);
}

class SymlinkLoopError extends Error {
  constructor(readonly at: string) {
    super(`too many levels of symbolic links at ${at}`);
  }
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

/**
 * Canonicalise an absolute path that may not exist: realpath of the deepest existing ancestor,
 * with dangling symlinks followed by hand (bounded hops), then the missing tail re-appended.
 */
async function robustRealpath(abs: string, hops: { count: number }): Promise<string> {
  try {
    return await realpath(abs);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ELOOP') throw new SymlinkLoopError(abs);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  const realParent = await robustRealpath(parent, hops);
  const base = path.basename(abs);
  const joined = path.join(realParent, base);
  let isLink = false;
  try {
    isLink = (await lstat(joined)).isSymbolicLink();
  } catch {
    // Does not exist (or cannot be inspected): it is part of the missing tail.
  }
  if (!isLink) return joined;
  // A symlink whose target is missing (realpath failed above): follow it by hand.
  hops.count += 1;
  if (hops.count > PATH_LIMITS.maxSymlinkHops) throw new SymlinkLoopError(joined);
  const target = await readlink(joined);
  return robustRealpath(path.resolve(realParent, target), hops);
}

async function canonical(abs: string): Promise<string> {
  return robustRealpath(abs, { count: 0 });
}

/** `.GIT`, `.git.`, `.git `, `.git::$DATA` all name the git dir on some filesystem. */
function isGitComponent(component: string): boolean {
  const name = component.split(':')[0] ?? '';
  return name.replace(/[. ]+$/, '').toLowerCase() === '.git';
}

function hasGitComponent(relative: string): boolean {
  return relative.split(/[\\/]/).some(isGitComponent);
}

/** If `<workdir>/.git` is a gitdir file, the canonical git dirs it points to (gitdir + commondir). */
async function gitFileTargets(realWorkdir: string): Promise<string[]> {
  const gitPath = path.join(realWorkdir, '.git');
  let text: string;
  try {
    const stat = await lstat(gitPath);
    if (!stat.isFile()) return [];
    const handle = await open(gitPath, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(stat.size, MAX_GITFILE_BYTES));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return [];
  }
  const match = /^\s*gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!match?.[1]) return [];
  const targets: string[] = [];
  try {
    const gitdir = await canonical(path.resolve(realWorkdir, match[1]));
    targets.push(gitdir);
    // Linked worktrees keep shared objects/hooks in the main repo's git dir (`commondir`).
    try {
      const common = (await readSmall(path.join(gitdir, 'commondir'))).trim();
      if (common) targets.push(await canonical(path.resolve(gitdir, common)));
    } catch {
      // No commondir: not a linked worktree.
    }
  } catch {
    // Unresolvable gitdir (for example a symlink loop): nothing more to protect.
  }
  return targets;
}

async function readSmall(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** `dev:ino` of a file, for telling a hard link to it from an unrelated file. */
function inode(info: { dev: number; ino: number }): string {
  return `${info.dev}:${info.ino}`;
}

/**
 * The settings file `target` is a hard link to, if any: compared by device and inode with each
 * settings file and each file directly inside a settings folder. Only a file with more than one
 * link can be such a hard link, so an ordinary file costs a single `stat`.
 */
async function hardLinkedSettingsFile(
  target: string,
  settingsReal: readonly string[],
): Promise<string | undefined> {
  const info = await stat(target).catch(() => undefined);
  if (info === undefined || !info.isFile() || info.nlink < 2) return undefined;
  const wanted = inode(info);
  for (const entry of settingsReal) {
    const entryInfo = await stat(entry).catch(() => undefined);
    if (entryInfo?.isFile() && inode(entryInfo) === wanted) return entry;
    if (!entryInfo?.isDirectory()) continue;
    const names = await readdir(entry).catch(() => [] as string[]);
    for (const name of names) {
      const child = await stat(path.join(entry, name)).catch(() => undefined);
      if (child?.isFile() && inode(child) === wanted) return path.join(entry, name);
    }
  }
  return undefined;
}

function settingsError(input: string, place: string): PathGuardResult {
  return {
    ok: false,
    errorType: 'protected_path',
    error:
      `settings path: "${input}" is ${place}, where tiny-claw keeps its own settings and state ` +
      '(API keys, trusted folders, approvals, traces); tools can neither read nor write it, by any path.',
  };
}

/**
 * The refusal of a path that is, or lies in, a settings path (canonically or as spelled), or is a
 * hard link to a settings file; undefined when it is none of these.
 */
async function settingsRefusal(
  input: string,
  realWorkdir: string,
  lexical: string,
  resolved: string,
  entries: readonly string[],
): Promise<PathGuardResult | undefined> {
  if (entries.length === 0) return undefined;
  const settingsReal: string[] = [];
  for (const entry of entries) {
    const spelled = path.resolve(realWorkdir, entry);
    const real = await canonical(spelled).catch(() => spelled);
    settingsReal.push(real);
    if (isInside(real, resolved) || isInside(spelled, lexical)) {
      return settingsError(input, resolved === real ? real : `inside ${real}`);
    }
  }
  const linked = await hardLinkedSettingsFile(resolved, settingsReal);
  return linked === undefined ? undefined : settingsError(input, `a hard link to ${linked}`);
}

function outsideError(input: string, resolved: string, realWorkdir: string): PathGuardResult {
  return {
    ok: false,
    errorType: 'path_outside_root',
    error:
      `path must stay under the workdir: "${input}" resolves to ${resolved}, which is outside ${realWorkdir} ` +
      '(paths must stay under the configured root). Use a path relative to the workdir; symlinks ' +
      'that point outside it cannot be followed.',
  };
}

/**
 * Resolve a model-supplied path against the workdir and confine it there.
 *
 * Validation happens before any fs call. The workdir and the deepest existing ancestor of the
 * target are realpath'd (dangling symlinks followed by hand), the missing tail is re-appended,
 * and containment is checked by path component. For `write` access, `.git` (any component, any
 * case), the target of a `gitdir:` file and every protected path are denied even when missing;
 * for either access, every settings path is.
 *
 * Residual risk: Node has no `openat2(RESOLVE_BENEATH)`, so a concurrent process could swap a
 * directory for a symlink between this check and the caller's fs operation.
 *
 * @example
 * const r = await resolveInWorkdir('/repo', '../etc/passwd', { access: 'read' });
 * // { ok: false, errorType: 'path_outside_root', error: 'path must stay under the workdir: …' }
 * const w = await resolveInWorkdir('/repo', 'src/new.ts', { access: 'write', protectedPaths: ['/repo/.tiny-claw'] });
 * // { ok: true, path: '/repo/src/new.ts', relative: 'src/new.ts' }
 * const s = await resolveInWorkdir('/repo', 'conf/../team.env', { access: 'read', settingsPaths: ['/repo/team.env'] });
 * // { ok: false, errorType: 'protected_path', error: 'settings path: "conf/../team.env" is /repo/team.env, …' }
 */
export async function resolveInWorkdir(
  workdir: string,
  input: string,
  options: ResolveInWorkdirOptions,
): Promise<PathGuardResult> {
  const invalid = validatePathInput(input);
  if (invalid) return { ok: false, errorType: 'invalid_path', error: invalid };

  let realWorkdir: string;
  try {
    realWorkdir = await realpath(path.resolve(workdir));
  } catch (error) {
    return {
      ok: false,
      errorType: 'workdir_unavailable',
      error: `the workdir cannot be resolved (${errnoCode(error) ?? String(error)}): ${workdir}`,
    };
  }

  const lexical = path.resolve(realWorkdir, input);
  let resolved: string;
  try {
    resolved = await canonical(lexical);
  } catch (error) {
    if (error instanceof SymlinkLoopError) {
      return {
        ok: false,
        errorType: 'invalid_path',
        error: `invalid path: "${input}" has a symlink loop (too many levels of symbolic links)`,
      };
    }
    return {
      ok: false,
      errorType: 'invalid_path',
      error: `invalid path: "${input}" cannot be resolved (${errnoCode(error) ?? String(error)})`,
    };
  }

  if (!isInside(realWorkdir, resolved)) return outsideError(input, resolved, realWorkdir);
  const relative = path.relative(realWorkdir, resolved) || '.';
  const settings = await settingsRefusal(
    input,
    realWorkdir,
    lexical,
    resolved,
    options.settingsPaths ?? [],
  );
  if (settings !== undefined) return settings;

  if (options.access === 'write') {
    // Lexical check too, so a `.git` spelled in the input is refused whatever it resolves to.
    const lexicalRelative = path.relative(path.resolve(workdir), path.resolve(workdir, input));
    if (
      hasGitComponent(relative) ||
      (isInside(path.resolve(workdir), path.resolve(workdir, input)) &&
        hasGitComponent(lexicalRelative))
    ) {
      return {
        ok: false,
        errorType: 'protected_path',
        error: `protected path: "${input}" is inside a .git directory; writing git internals is not allowed.`,
      };
    }
    for (const gitdir of await gitFileTargets(realWorkdir)) {
      if (isInside(gitdir, resolved)) {
        return {
          ok: false,
          errorType: 'protected_path',
          error: `protected path: "${input}" is inside the repository's git dir (${gitdir}, from the .git file); writing git internals is not allowed.`,
        };
      }
    }
    for (const entry of options.protectedPaths ?? []) {
      let protectedReal: string;
      try {
        protectedReal = await canonical(path.resolve(realWorkdir, entry));
      } catch {
        protectedReal = path.resolve(realWorkdir, entry);
      }
      if (
        isInside(protectedReal, resolved) ||
        isInside(path.resolve(realWorkdir, entry), lexical)
      ) {
        return {
          ok: false,
          errorType: 'protected_path',
          error: `protected path: "${input}" is inside ${protectedReal}, which holds tiny-claw state and cannot be written by tools.`,
        };
      }
    }
  }

  return { ok: true, path: resolved, relative };
}
