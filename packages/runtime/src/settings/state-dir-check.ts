import { realpath, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isErrnoError } from '@tiny-claw/core/utils';
import { InvalidSettingsError } from './settings-error.js';

/** Kernel-made trees where files cannot be stored. */
const PSEUDO_ROOTS = ['/proc', '/sys', '/dev'] as const;

/**
 * Linux `statfs` magic numbers of filesystems that hold no ordinary files, for a pseudo filesystem
 * mounted somewhere else than its usual place.
 */
const PSEUDO_FILESYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x9fa0, 'procfs'],
  [0x62656572, 'sysfs'],
  [0x1cd1, 'devpts'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0xcafe4a11, 'bpf'],
  [0x6165676c, 'pstore'],
  [0x62656570, 'configfs'],
  [0xde5e81e4, 'efivarfs'],
]);

/**
 * Refuses a state dir that lies on a pseudo filesystem (`/proc`, `/sys`, `/dev`, or a procfs,
 * sysfs, cgroup … mounted elsewhere). Such a place cannot hold files, and creating directories
 * there fails in ways that look like a race, so it is stopped at start-up with a configuration
 * error instead. The state dir need not exist: its deepest existing ancestor is checked, with
 * symbolic links resolved.
 *
 * @throws InvalidSettingsError (exit code 78) naming `TINY_CLAW_STATE_DIR` and what to do.
 * @example
 * await assertStateDirUsable(settings.stateDir);
 */
export async function assertStateDirUsable(stateDir: string): Promise<void> {
  const existing = await deepestExistingAncestor(stateDir);
  if (existing === undefined) return;
  const root = PSEUDO_ROOTS.find((r) => existing === r || existing.startsWith(`${r}/`));
  let where: string | undefined = root === undefined ? undefined : `under ${root}`;
  if (where === undefined && process.platform === 'linux') {
    const type = await statfs(existing).then(
      (info) => PSEUDO_FILESYSTEMS.get(Number(info.type)),
      () => undefined,
    );
    if (type !== undefined) where = `on a ${type} filesystem`;
  }
  if (where === undefined) return;
  throw new InvalidSettingsError([
    `TINY_CLAW_STATE_DIR=${JSON.stringify(stateDir)} is invalid: it is ${where}, a pseudo ` +
      'filesystem that cannot hold files; set TINY_CLAW_STATE_DIR to an ordinary directory ' +
      '(the default is ~/.tiny-claw).',
  ]);
}

/**
 * The canonical path of `path` or of its nearest ancestor that exists; undefined when none can be
 * resolved (then later file operations report the real problem).
 */
async function deepestExistingAncestor(path: string): Promise<string | undefined> {
  let at = path;
  for (;;) {
    try {
      return await realpath(at);
    } catch (error) {
      if (!isErrnoError(error, 'ENOENT') && !isErrnoError(error, 'ENOTDIR')) return undefined;
      const parent = dirname(at);
      if (parent === at) return undefined;
      at = parent;
    }
  }
}
