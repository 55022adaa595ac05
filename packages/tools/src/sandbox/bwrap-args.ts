/**
 * One filesystem change inside the sandbox, on top of the read-only view of `/`:
 * - `writable`: bind the host directory read-write (the workdir);
 * - `read-only`: bind the host path over itself read-only (`.git/hooks` inside the workdir);
 * - `hide-dir`: an empty read-only directory instead (a credential directory, the state dir);
 * - `hide-file`: an unreadable file instead (a credential file).
 *
 * @example
 * const mount: SandboxMount = { kind: 'hide-dir', path: '/home/me/.ssh' };
 */
export interface SandboxMount {
  kind: 'writable' | 'read-only' | 'hide-dir' | 'hide-file';
  /** Absolute, symlink-free path. */
  path: string;
}

/**
 * What a sandboxed command sees, apart from the fixed parts (`/` read-only, a minimal `/dev`, a
 * fresh `/proc`, a private `/tmp`).
 *
 * @example
 * const plan: SandboxPlan = { mounts: [{ kind: 'writable', path: '/repo' }], cwd: '/repo', network: false };
 */
export interface SandboxPlan {
  mounts: readonly SandboxMount[];
  /** Absolute directory the command starts in. */
  cwd: string;
  network: boolean;
}

/**
 * The namespace flags of every sandbox: new user, PID and IPC namespaces (and network unless it
 * is allowed), no capabilities, killed with its parent, its own session (so it cannot push input
 * into the terminal that started tiny-claw).
 */
function namespaceArguments(network: boolean): string[] {
  return [
    '--unshare-user',
    '--unshare-pid',
    '--unshare-ipc',
    ...(network ? [] : ['--unshare-net']),
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
  ];
}

/** Fixed mounts, shallow to deep; `dest` is how the depth sort below sees them. */
const FIXED_MOUNTS: ReadonlyArray<{ dest: string; args: readonly string[] }> = [
  { dest: '/', args: ['--ro-bind', '/', '/'] },
  { dest: '/dev', args: ['--dev', '/dev'] },
  { dest: '/proc', args: ['--proc', '/proc'] },
  { dest: '/tmp', args: ['--tmpfs', '/tmp'] },
];

function depth(absolute: string): number {
  return absolute === '/' ? 0 : absolute.split('/').length - 1;
}

function mountArguments(mount: SandboxMount): string[] {
  switch (mount.kind) {
    case 'writable':
      return ['--bind', mount.path, mount.path];
    case 'read-only':
      return ['--ro-bind', mount.path, mount.path];
    case 'hide-dir':
      return ['--tmpfs', mount.path];
    case 'hide-file':
      // A device bound into the sandbox is unusable (nodev): reads and writes both fail.
      return ['--ro-bind', '/dev/null', mount.path];
  }
}

/**
 * What bubblewrap applies last, just before it starts the command: a seccomp filter read from
 * descriptor `seccompFd` (which bubblewrap closes once read).
 *
 * @example
 * const extras: BwrapExtras = { seccompFd: 5 };
 */
export interface BwrapExtras {
  seccompFd?: number;
}

function extraArguments(extras: BwrapExtras): string[] {
  return extras.seccompFd === undefined ? [] : ['--seccomp', String(extras.seccompFd)];
}

/**
 * The bubblewrap arguments (up to and including `--`) that make the view a trial run needs: the
 * namespaces and the fixed mounts only, and the filter when `extras` has one.
 *
 * @example
 * spawnSync('bwrap', [...bwrapProbeArguments(), 'true']);
 */
export function bwrapProbeArguments(extras: BwrapExtras = {}): string[] {
  return [
    ...namespaceArguments(false),
    ...FIXED_MOUNTS.flatMap((mount) => mount.args),
    ...extraArguments(extras),
    '--',
  ];
}

/**
 * The bubblewrap arguments (up to and including `--`) for `plan`. Mounts are applied from the
 * shallowest path to the deepest, so a deeper rule wins: the state dir stays hidden inside a
 * writable workdir, and a workdir inside a hidden directory stays usable while the rest of that
 * directory is hidden. Hidden directories are made read-only last, once every mount point inside
 * them exists (a read-only remount does not reach the mounts below it).
 *
 * @example
 * bwrapArguments({ mounts: [{ kind: 'writable', path: '/repo' }], cwd: '/repo', network: false });
 * // ['--unshare-user', …, '--bind', '/repo', '/repo', '--chdir', '/repo', '--']
 */
export function bwrapArguments(plan: SandboxPlan, extras: BwrapExtras = {}): string[] {
  const ordered = [
    ...FIXED_MOUNTS,
    ...plan.mounts.map((mount) => ({ dest: mount.path, args: mountArguments(mount) })),
  ]
    .map((mount, index) => ({ ...mount, index }))
    // Stable: at equal depth the fixed mounts, then the plan's order.
    .sort((a, b) => depth(a.dest) - depth(b.dest) || a.index - b.index);
  const remounts = plan.mounts
    .filter((mount) => mount.kind === 'hide-dir')
    .flatMap((mount) => ['--remount-ro', mount.path]);
  return [
    ...namespaceArguments(plan.network),
    ...ordered.flatMap((mount) => mount.args),
    ...remounts,
    '--chdir',
    plan.cwd,
    ...extraArguments(extras),
    '--',
  ];
}
