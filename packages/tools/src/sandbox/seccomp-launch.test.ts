import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcessGroup } from '../bash/process-group.js';
import { bwrapProbeArguments } from './bwrap-args.js';
import { probeBubblewrap } from './probe.js';
import { SECCOMP_FD, spawnWithFilterSync } from './seccomp-launch.js';

const probe = probeBubblewrap();
const filterLoads = probe.usable && probe.filter.state === 'loads';
const whyNot = !probe.usable
  ? probe.reason
  : probe.filter.state === 'loads'
    ? ''
    : probe.filter.why;

/** Every byte value, NUL and newline and backslash and percent included. */
const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, index) => index);

const hasPython = spawnSync('sh', ['-c', 'command -v python3']).status === 0;

describe('handing the filter over on its descriptor', () => {
  it('a command runner gives the launcher the bytes, byte for byte, on a pipe', async () => {
    // `sh -c 'cat <&5'` stands in for bubblewrap reading its --seccomp descriptor.
    const result = await runInProcessGroup({
      command: 'true',
      cwd: tmpdir(),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: 10_000,
      launcher: { command: 'sh', args: ['-c', `cat <&${SECCOMP_FD} >&2; exec "$@"`, 'sh'] },
      launcherInput: { fd: SECCOMP_FD, data: ALL_BYTES },
    });
    expect(result.code).toBe(0);
    expect(Buffer.compare(result.stderr.head, Buffer.from(ALL_BYTES))).toBe(0);
  });

  it('the synchronous trial gives them on the same descriptor and leaves no file behind', () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'tc-seccomp-launch-'));
    try {
      const result = spawnWithFilterSync(
        'sh',
        ['-c', `od -An -tx1 <&${SECCOMP_FD} | wc -w`],
        ALL_BYTES,
        {},
        parent,
      );
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout.trim()).toBe('256');
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe.runIf(filterLoads)('bubblewrap with the filter', () => {
  it('closes the filter descriptor before the command starts', () => {
    if (!probe.usable || probe.filter.state !== 'loads') throw new Error('unreachable');
    const result = spawnWithFilterSync(
      probe.path,
      [...bwrapProbeArguments({ seccompFd: SECCOMP_FD }), 'sh', '-c', 'ls /proc/self/fd'],
      probe.filter.program,
      { env: { PATH: '/usr/bin:/bin' } },
    );
    expect(result.status, result.stderr).toBe(0);
    // 0–2 and the descriptor ls opened for /proc/self/fd; never the filter's.
    expect(result.stdout.trim().split('\n').map(Number)).not.toContain(SECCOMP_FD);
  });

  it.skipIf(!hasPython)('refuses unix sockets once loaded', () => {
    if (!probe.usable || probe.filter.state !== 'loads') throw new Error('unreachable');
    const result = spawnWithFilterSync(
      probe.path,
      [
        ...bwrapProbeArguments({ seccompFd: SECCOMP_FD }),
        'python3',
        '-c',
        'import socket\ntry:\n  socket.socket(socket.AF_UNIX)\n  print("created")\nexcept PermissionError:\n  print("refused")',
      ],
      probe.filter.program,
      { env: { PATH: '/usr/bin:/bin' } },
    );
    expect(result.stdout.trim()).toBe('refused');
  });
});

describe.skipIf(filterLoads)('bubblewrap with the filter', () => {
  it.skip(`cannot be tried here: ${whyNot}`, () => {});
});
