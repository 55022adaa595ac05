import { symlink } from 'node:fs/promises';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from './load-settings.js';
import { rootWorkdirRefusal } from './root-workdir.js';

let ws: TempWorkspace;
let home: string;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'home/project/x.txt': '', 'elsewhere/x.txt': '' });
  home = ws.path('home');
  await symlink(home, ws.path('home-link'));
});
afterEach(() => ws.cleanup());

function refusal(env: Record<string, string>, consent = false) {
  const settings = loadSettings({
    env: { TINY_CLAW_STATE_DIR: ws.path('state'), ...env },
    cwd: ws.path('elsewhere'),
    homeDir: home,
  });
  return rootWorkdirRefusal(settings, { homeDirs: [home, '/nonexistent-account-home'], consent });
}

describe('rootWorkdirRefusal refuses / and the home directory when tools can change files', () => {
  const changing = { TINY_CLAW_ENABLED_TOOLS: 'read,write,bash' };

  it.each([
    ['/', '/'],
    ['the home directory', 'HOME'],
    ['the home directory with a trailing slash', 'HOME/'],
    ['the home directory spelled with ..', 'HOME/project/..'],
    ['a symlink to the home directory', 'LINK'],
  ])('refuses %s, naming the flag and the setting', async (_, spelled) => {
    const workdir = spelled.replace('HOME', home).replace('LINK', ws.path('home-link'));
    const message = await refusal({ ...changing, TINY_CLAW_WORKDIR: workdir });
    expect(message).toContain('refusing to work in');
    expect(message).toContain('write, bash enabled');
    expect(message).toContain('--allow-root-workdir');
    expect(message).toContain('TINY_CLAW_ALLOW_ROOT_WORKDIR=1');
    expect(message).toContain(
      spelled === '/' ? 'the filesystem root /' : `your home directory ${home}`,
    );
  });

  it('refuses for each of write, edit and bash alone', async () => {
    for (const tool of ['write', 'edit', 'bash']) {
      const message = await refusal({ TINY_CLAW_ENABLED_TOOLS: tool, TINY_CLAW_WORKDIR: '/' });
      expect(message).toContain(`with ${tool} enabled`);
    }
  });

  it('accepts them with consent: the flag, or TINY_CLAW_ALLOW_ROOT_WORKDIR in any spelling', async () => {
    expect(await refusal({ ...changing, TINY_CLAW_WORKDIR: '/' }, true)).toBeUndefined();
    for (const value of ['1', 'on', 'true', 'yes']) {
      const env = { ...changing, TINY_CLAW_WORKDIR: home, TINY_CLAW_ALLOW_ROOT_WORKDIR: value };
      expect(await refusal(env)).toBeUndefined();
    }
  });

  it('accepts them when only reading tools are offered, or the others are denied', async () => {
    expect(await refusal({ TINY_CLAW_WORKDIR: '/' })).toBeUndefined();
    expect(await refusal({ TINY_CLAW_WORKDIR: '/', TINY_CLAW_ENABLED_TOOLS: '' })).toBeUndefined();
    const denied = { ...changing, TINY_CLAW_WORKDIR: '/', TINY_CLAW_TOOL_DENYLIST: 'write,bash' };
    expect(await refusal(denied)).toBeUndefined();
    const allowed = { ...changing, TINY_CLAW_WORKDIR: '/', TINY_CLAW_TOOL_ALLOWLIST: 'read' };
    expect(await refusal(allowed)).toBeUndefined();
  });

  it('accepts a project folder inside the home directory', async () => {
    expect(await refusal({ ...changing, TINY_CLAW_WORKDIR: `${home}/project` })).toBeUndefined();
  });

  it('rejects an invalid TINY_CLAW_ALLOW_ROOT_WORKDIR naming the accepted values', () => {
    expect(() =>
      loadSettings({ env: { TINY_CLAW_ALLOW_ROOT_WORKDIR: 'maybe' }, cwd: '/', homeDir: home }),
    ).toThrow(/TINY_CLAW_ALLOW_ROOT_WORKDIR="maybe" is invalid: expected one of: on, off/);
  });
});
