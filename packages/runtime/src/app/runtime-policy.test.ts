import { ScriptedProvider } from '@tiny-claw/core/testing';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../settings/load-settings.js';
import { createApplication } from './create-application.js';

let ws: TempWorkspace;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

beforeEach(async () => {
  ws = await createTempWorkspace({ 'a.txt': 'alpha\n' });
});
afterEach(() => ws.cleanup());

const settingsWith = (env: Record<string, string>) =>
  loadSettings({
    env: {
      TINY_CLAW_STATE_DIR: ws.path('.state'),
      TINY_CLAW_WORKDIR: ws.dir,
      TINY_CLAW_APPROVAL_PROVIDER: 'off',
      TINY_CLAW_SANDBOX: 'off',
      ...env,
    },
    cwd: ws.dir,
    homeDir: ws.dir,
  });

describe('the allow and deny settings become the agent’s policy', () => {
  it.each([
    ['no lists: every enabled tool', {}, ['edit', 'read']],
    [
      'an empty allow list means unset: every enabled tool',
      { TINY_CLAW_TOOL_ALLOWLIST: '' },
      ['edit', 'read'],
    ],
    ['an allow list: only those', { TINY_CLAW_TOOL_ALLOWLIST: 'read' }, ['read']],
    ['a deny list: all but those', { TINY_CLAW_TOOL_DENYLIST: 'edit' }, ['read']],
    ['another case names the same tool', { TINY_CLAW_TOOL_DENYLIST: 'EDIT' }, ['read']],
    ['a repeated name counts once', { TINY_CLAW_TOOL_DENYLIST: 'edit,edit' }, ['read']],
    [
      'denying a tool that is not enabled changes nothing',
      { TINY_CLAW_TOOL_DENYLIST: 'bash' },
      ['edit', 'read'],
    ],
    [
      'allowing only tools that are not enabled allows none',
      { TINY_CLAW_TOOL_ALLOWLIST: 'bash' },
      [],
    ],
    [
      'deny wins over allow',
      { TINY_CLAW_TOOL_ALLOWLIST: 'read,edit', TINY_CLAW_TOOL_DENYLIST: 'read' },
      ['edit'],
    ],
  ])('%s', async (_case, env, offered) => {
    const provider = new ScriptedProvider({ turns: [{ text: 'ok' }] });
    const app = await createApplication(
      settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'read,edit', ...env }),
      { provider, logger: silent },
    );
    expect(app.health().tools).toEqual(offered);
    await app.run({ prompt: 'x' });
    expect(provider.requests[0]?.tools.map((tool) => tool.name).sort()).toEqual(offered);
  });

  it('lets the lists name the explorer’s own read tool even when read is not enabled', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'ok' }] });
    const app = await createApplication(
      settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'explore', TINY_CLAW_TOOL_DENYLIST: 'read' }),
      { provider, logger: silent },
    );
    expect(app.health().tools).toEqual(['explore']);
  });
});
