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
