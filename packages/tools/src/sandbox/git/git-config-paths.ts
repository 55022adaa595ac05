import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileIdentity } from './git-index.js';

/**
 * Files and directories that git's configuration makes part of "what git runs": the hooks
 * directory `core.hooksPath` names, and every file an `include.path` / `includeIf.*.path` pulls
 * in. When one of them lies inside the workdir, a sandboxed command could otherwise plant a hook
 * or a configuration entry there (husky's `.husky/_` is the common case).
 *
 * git itself is asked (`git config --show-origin --get-regexp`), because only git knows which
 * files it reads (system, global, XDG, repository, worktree, includes and their conditions). The
 * answer is cached while none of the files it came from has changed.
 */
export interface GitConfigPaths {
  /** The hooks directory `core.hooksPath` names, absolute; undefined when it is not set. */
  readonly hooksPath?: string;
  /** Files pulled in by include directives, absolute. */
  readonly includes: readonly string[];
}

const QUERY = '^(core\\.hookspath|include\\.path|includeif\\..+\\.path)$';
const TIMEOUT_MS = 5000;

interface CacheEntry {
  key: string;
  paths: GitConfigPaths;
  sources: readonly string[];
}

const cache = new Map<string, CacheEntry>();
let gitMissing = false;

function expandHome(value: string, home: string | undefined): string {
  if (home === undefined) return value;
  if (value === '~') return home;
  return value.startsWith('~/') ? path.join(home, value.slice(2)) : value;
}

/**
 * The configuration files git reads whatever the repository (they may not exist), and those of
 * the git directories `gitDirs`.
 *
 * @example
 * fixedConfigSources({ HOME: '/home/me' }, []); // ['/etc/gitconfig', '/home/me/.gitconfig', '/home/me/.config/git/config']
 */
export function fixedConfigSources(env: NodeJS.ProcessEnv, gitDirs: readonly string[]): string[] {
  const home = env.HOME ?? os.homedir();
  const xdg = env.XDG_CONFIG_HOME || path.join(home, '.config');
  return [
    env.GIT_CONFIG_SYSTEM || '/etc/gitconfig',
    env.GIT_CONFIG_GLOBAL || path.join(home, '.gitconfig'),
    path.join(xdg, 'git', 'config'),
    ...gitDirs.flatMap((dir) => [path.join(dir, 'config'), path.join(dir, 'config.worktree')]),
  ];
}

async function cacheKey(sources: readonly string[]): Promise<string> {
  const identities = await Promise.all(sources.map((file) => fileIdentity(file)));
  return sources.map((file, index) => `${file}=${identities[index] ?? '-'}`).join('\n');
}

function runGitConfig(cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['--no-pager', 'config', '--null', '--show-origin', '--get-regexp', QUERY],
      {
        cwd,
        env: { ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
        timeout: TIMEOUT_MS,
        maxBuffer: 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout) => {
        const code = (error as { code?: unknown } | null)?.code;
        // No git here: nothing git reads can run, and there is no point in asking again.
        if (code === 'ENOENT') gitMissing = true;
        // Exit code 1 means "no such key": nothing configured.
        if (error && code !== 1) {
          resolve(undefined);
          return;
        }
        resolve(stdout);
      },
    );
  });
}

/**
 * Parse `git config --null --show-origin --get-regexp` output: `origin NUL key LF value NUL`.
 * Relative include paths are relative to the file that names them; a relative hooks path to the
 * top of the worktree (`top`).
 */
function parse(output: string, cwd: string, top: string, home: string | undefined) {
  const fields = output.split('\0');
  const includes: string[] = [];
  const sources: string[] = [];
  let hooksPath: string | undefined;
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const origin = fields[index] ?? '';
    const entry = fields[index + 1] ?? '';
    const newline = entry.indexOf('\n');
    if (newline < 0) continue;
    const key = entry.slice(0, newline).toLowerCase();
    const value = expandHome(entry.slice(newline + 1), home);
    const file = origin.startsWith('file:') ? path.resolve(cwd, origin.slice(5)) : undefined;
    if (file !== undefined) sources.push(file);
    if (key === 'core.hookspath') hooksPath = path.resolve(top, value);
    else if (value !== '') includes.push(path.resolve(file ? path.dirname(file) : cwd, value));
  }
  return { paths: { hooksPath, includes }, sources };
}

/**
 * What git's configuration, as read in `workdir` with `env`, names as hooks directory and
 * included files. `gitDirs` are the repository's git directories (for the cache); `top` is the
 * top of its worktree. Undefined when git is not installed or fails (then nothing is known, and
 * nothing beyond the repository's own files is protected).
 *
 * @example
 * await gitConfigPaths('/repo', '/repo', ['/repo/.git'], process.env); // { hooksPath: '/repo/.husky/_', includes: [] }
 */
export async function gitConfigPaths(
  workdir: string,
  top: string,
  gitDirs: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<GitConfigPaths | undefined> {
  if (gitMissing) return undefined;
  const fixed = fixedConfigSources(env, gitDirs);
  const cached = cache.get(workdir);
  if (cached !== undefined) {
    const key = await cacheKey([...new Set([...fixed, ...cached.sources])]);
    if (key === cached.key) return cached.paths;
  }
  const output = await runGitConfig(workdir, env);
  if (output === undefined) return undefined;
  const { paths, sources } = parse(output, workdir, top, env.HOME ?? os.homedir());
  const all = [...new Set([...fixed, ...sources, ...paths.includes])];
  cache.set(workdir, { key: await cacheKey(all), paths, sources: all });
  return paths;
}
