import { describe, expect, it } from 'vitest';
import { bwrapArguments, bwrapProbeArguments } from './bwrap-args.js';

/** Index of the option `flag` followed by `dest` as its last operand. */
function indexOf(args: string[], flag: string, dest: string): number {
  return args.findIndex(
    (value, index) =>
      value === flag &&
      (args[index + 1] === dest || (flag.includes('bind') && args[index + 2] === dest)),
  );
}

describe('bubblewrap arguments', () => {
  it('unshares user, PID, IPC and network, dies with its parent and starts a new session', () => {
    const args = bwrapArguments({ mounts: [], cwd: '/repo', network: false });
    for (const flag of [
      '--unshare-user',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-net',
      '--die-with-parent',
      '--new-session',
    ]) {
      expect(args, flag).toContain(flag);
    }
    expect(args.slice(args.indexOf('--cap-drop'), args.indexOf('--cap-drop') + 2)).toEqual([
      '--cap-drop',
      'ALL',
    ]);
    expect(args.slice(-3)).toEqual(['--chdir', '/repo', '--']);
  });

  it('keeps the host network only when the network is on', () => {
    expect(bwrapArguments({ mounts: [], cwd: '/', network: true })).not.toContain('--unshare-net');
    expect(bwrapProbeArguments()).toContain('--unshare-net');
  });

  it('makes / read-only first, then a fresh /dev, /proc and a private /tmp', () => {
    const args = bwrapArguments({ mounts: [], cwd: '/', network: false });
    const root = indexOf(args, '--ro-bind', '/');
    expect(root).toBeGreaterThan(-1);
    expect(indexOf(args, '--dev', '/dev')).toBeGreaterThan(root);
    expect(indexOf(args, '--proc', '/proc')).toBeGreaterThan(root);
    expect(indexOf(args, '--tmpfs', '/tmp')).toBeGreaterThan(root);
  });

  it('hides a state dir inside the writable workdir after binding the workdir', () => {
    const args = bwrapArguments({
      mounts: [
        { kind: 'hide-dir', path: '/repo/.tiny-claw' },
        { kind: 'writable', path: '/repo' },
        { kind: 'read-only', path: '/repo/.git/hooks' },
      ],
      cwd: '/repo',
      network: false,
    });
    const workdir = indexOf(args, '--bind', '/repo');
    expect(workdir).toBeGreaterThan(indexOf(args, '--tmpfs', '/tmp'));
    expect(indexOf(args, '--tmpfs', '/repo/.tiny-claw')).toBeGreaterThan(workdir);
    expect(indexOf(args, '--ro-bind', '/repo/.git/hooks')).toBeGreaterThan(workdir);
    // Read-only once everything inside it is mounted.
    expect(indexOf(args, '--remount-ro', '/repo/.tiny-claw')).toBeGreaterThan(
      indexOf(args, '--ro-bind', '/repo/.git/hooks'),
    );
  });

  it('keeps a workdir inside a hidden directory usable by binding it after the hiding', () => {
    const args = bwrapArguments({
      mounts: [
        { kind: 'writable', path: '/home/me/.config/gh/work' },
        { kind: 'hide-dir', path: '/home/me/.config/gh' },
      ],
      cwd: '/home/me/.config/gh/work',
      network: false,
    });
    expect(indexOf(args, '--bind', '/home/me/.config/gh/work')).toBeGreaterThan(
      indexOf(args, '--tmpfs', '/home/me/.config/gh'),
    );
  });

  it('loads a seccomp filter from the given descriptor last, just before the command', () => {
    const args = bwrapArguments({ mounts: [], cwd: '/repo', network: false }, { seccompFd: 5 });
    expect(args.slice(-3)).toEqual(['--seccomp', '5', '--']);
    expect(bwrapProbeArguments({ seccompFd: 5 }).slice(-3)).toEqual(['--seccomp', '5', '--']);
    expect(bwrapArguments({ mounts: [], cwd: '/', network: false })).not.toContain('--seccomp');
    expect(bwrapProbeArguments()).not.toContain('--seccomp');
  });

  it('hides a file behind an unreadable device node', () => {
    const args = bwrapArguments({
      mounts: [{ kind: 'hide-file', path: '/home/me/.netrc' }],
      cwd: '/',
      network: false,
    });
    const at = args.indexOf('/home/me/.netrc');
    expect(args.slice(at - 2, at + 1)).toEqual(['--ro-bind', '/dev/null', '/home/me/.netrc']);
  });
});
