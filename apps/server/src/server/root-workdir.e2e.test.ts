import { symlink } from 'node:fs/promises';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main, type ServerProcess } from '../main.js';

// The server's workdir is TINY_CLAW_WORKDIR (default: its working directory). At start-up, / or the
// home directory is refused while write, edit or bash is enabled, unless the operator consents.

let ws: TempWorkspace;
let home: string;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'home/project/a.txt': 'a\n', 'deploy/.keep': '' });
  home = ws.path('home');
  await symlink(home, ws.path('home-link'));
});
afterEach(() => ws.cleanup());

function serverProcess(env: Record<string, string>) {
  const err: string[] = [];
  let stop: ((signal: 'SIGINT' | 'SIGTERM') => void) | undefined;
  const proc: ServerProcess = {
    stdout: () => {},
    stderr: (text) => err.push(text),
    env: {
      HOME: home,
      TINY_CLAW_STATE_DIR: ws.path('state'),
      TINY_CLAW_ENABLED_TOOLS: 'read,bash',
      TINY_CLAW_SANDBOX: 'off',
      ...env,
    },
    cwd: ws.path('deploy'),
    homeDir: home,
    onSignal: (handler) => {
      stop = handler;
      return () => {
        stop = undefined;
      };
    },
    exit: (code) => {
      throw new Error(`exit ${code}`);
    },
  };
  return {
    proc,
    stderr: () => err.join(''),
    stop: () => stop?.('SIGTERM'),
    listening: () => stop !== undefined,
  };
}

/**
 * Start the server with `args` and resolve to its exit code: at once when it refuses to start, or
 * after a SIGTERM once it listens (0 when it shuts down cleanly).
 */
async function exitOf(server: ReturnType<typeof serverProcess>, args: string[]): Promise<number> {
  const exited = main(['--port', '0', '--host', '127.0.0.1', ...args], server.proc);
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!done && !server.listening()) await new Promise((resolve) => setTimeout(resolve, 10));
  if (server.listening()) server.stop();
  return exited;
}

describe('tiny-claw-server refuses / and the home directory as its workdir', () => {
  it.each([
    ['/', () => '/'],
    ['$HOME', () => home],
    ['$HOME/', () => `${home}/`],
    ['a symlink to $HOME', () => ws.path('home-link')],
  ])(
    'TINY_CLAW_WORKDIR=%s with bash enabled: exit 2 naming the flag and the setting',
    async (_, workdir) => {
      const server = serverProcess({ TINY_CLAW_WORKDIR: workdir() });
      expect(await exitOf(server, [])).toBe(2);
      expect(server.stderr()).toContain('tiny-claw-server: refusing to work in');
      expect(server.stderr()).toContain('with bash enabled');
      expect(server.stderr()).toContain('Work in a project folder instead (TINY_CLAW_WORKDIR)');
      expect(server.stderr()).toContain('--allow-root-workdir');
      expect(server.stderr()).toContain('TINY_CLAW_ALLOW_ROOT_WORKDIR=1');
    },
  );

  it('starts there with --allow-root-workdir or TINY_CLAW_ALLOW_ROOT_WORKDIR=1', async () => {
    for (const [args, env] of [
      [['--allow-root-workdir'], { TINY_CLAW_WORKDIR: home }],
      [[], { TINY_CLAW_WORKDIR: '/', TINY_CLAW_ALLOW_ROOT_WORKDIR: '1' }],
    ] as const) {
      const server = serverProcess(env);
      expect(await exitOf(server, [...args]), server.stderr()).toBe(0);
      expect(server.stderr()).toContain('listening on');
    }
  });
});
