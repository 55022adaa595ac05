import { describe, expect, it } from 'vitest';
import { sandboxStatus } from './sandbox-status.js';
import { sandboxedLaunch } from './sandboxed-launch.js';

// A long-running program (an MCP server) is started under the same confinement as bash, with the
// arguments of the same builder.

const usable = sandboxStatus({ mode: 'auto' }).active === 'bwrap';

describe('the launch of a program in the bash sandbox', () => {
  it('with the sandbox off, the program still dies with its parent where setpriv exists', async () => {
    const launch = await sandboxedLaunch({
      sandbox: 'off',
      workdir: '/tmp',
      env: { HOME: '/nowhere' },
    });
    expect(launch.active).toBe('off');
    expect(launch.env).toEqual({ HOME: '/nowhere' });
    if (launch.launcher) expect(launch.launcher.args).toEqual(['--pdeathsig', 'KILL']);
  });

  it.runIf(usable).each([
    [true, false],
    [false, true],
  ])(
    'with bubblewrap and network %s, the network namespace is unshared: %s',
    async (network, unshared) => {
      const launch = await sandboxedLaunch({
        sandbox: { mode: 'bwrap', network },
        workdir: '/tmp',
        env: { HOME: '/nowhere' },
      });
      expect(launch.active).toBe('bwrap');
      const args = launch.launcher?.args ?? [];
      expect(args).toEqual(
        expect.arrayContaining(['--die-with-parent', '--unshare-pid', '--bind', '/tmp']),
      );
      expect(args.at(-1)).toBe('--');
      expect(args.includes('--unshare-net')).toBe(unshared);
      expect(launch.env.TMPDIR).toBe('/tmp');
    },
  );
});

describe("a program's own files under /tmp", () => {
  // Each case: the paths asked for, and the read-only binds that result, with the workdir at
  // /tmp/work-x and the home's credentials hidden as usual.
  it.runIf(usable).each([
    ['a tree under /tmp is kept readable', ['/tmp/repo/node_modules'], ['/tmp/repo/node_modules']],
    ['a path outside /tmp is visible already', ['/usr/lib/node_modules'], []],
    ['a path inside the writable workdir stays writable', ['/tmp/work-x/tools'], []],
    ['a folder holding the workdir is not bound over it', ['/tmp'], []],
    [
      'the same tree twice is bound once',
      ['/tmp/a/node_modules', '/tmp/a/node_modules'],
      ['/tmp/a/node_modules'],
    ],
  ])('%s', async (_what, readableTmp, bound) => {
    const launch = await sandboxedLaunch({
      sandbox: { mode: 'bwrap', network: false },
      workdir: '/tmp/work-x',
      env: { HOME: '/nowhere' },
      readableTmp,
    });
    const args = launch.launcher?.args ?? [];
    const readOnly = args
      .flatMap((arg, index) => (arg === '--ro-bind' ? [args[index + 1] as string] : []))
      .filter((path) => path.startsWith('/tmp'));
    expect(readOnly).toEqual(bound);
  });
});
