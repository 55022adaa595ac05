import { type SpawnSyncOptions, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Handing the seccomp filter to bubblewrap. Bubblewrap reads the program from a descriptor named
 * in its arguments (`--seccomp FD`) and closes it once read, before anything of the command runs.
 * A command's bubblewrap gets it on a pipe the harness writes the program into (the process
 * runner's `launcherInput`), so no file holding the filter exists that anything could swap.
 */

/** The descriptor the filter travels on: clear of stdio and of the runner's report pipe (3). */
export const SECCOMP_FD = 5;

/**
 * Run `file args…` synchronously with `program` readable on {@link SECCOMP_FD} — for the one-off
 * trial that checks bubblewrap loads the filter (a synchronous spawn cannot feed a pipe, so the
 * program goes through a private temporary file, opened before the spawn and removed after it).
 *
 * @example
 * spawnWithFilterSync('/usr/bin/bwrap', [...bwrapProbeArguments({ seccompFd: SECCOMP_FD }), 'true'], program);
 */
export function spawnWithFilterSync(
  file: string,
  args: readonly string[],
  program: Uint8Array,
  options: Omit<SpawnSyncOptions, 'stdio'> = {},
  tempParent: string = tmpdir(),
): SpawnSyncReturns<string> {
  const dir = mkdtempSync(path.join(tempParent, 'tiny-claw-seccomp-'));
  try {
    const filter = path.join(dir, 'filter.bpf');
    writeFileSync(filter, program, { mode: 0o600 });
    const fd = openSync(filter, 'r');
    try {
      const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
      while (stdio.length < SECCOMP_FD) stdio.push('ignore');
      stdio[SECCOMP_FD] = fd;
      return spawnSync(file, args, { ...options, encoding: 'utf8', stdio });
    } finally {
      closeSync(fd);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
