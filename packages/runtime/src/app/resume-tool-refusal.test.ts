import { readFile } from 'node:fs/promises';
import { ConfigurationError } from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../settings/load-settings.js';
import { createApplication } from './create-application.js';

// An approval decided by an application that cannot run the paused call's tool (the CLI of
// another shell, a server configured differently) must not use the approval up: it is refused
// before anything is claimed, naming the setting that keeps the tool out, and stays pending.

let ws: TempWorkspace;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

beforeEach(async () => {
  ws = await createTempWorkspace({});
});
afterEach(() => ws.cleanup());

const settingsWith = (env: Record<string, string>) =>
  loadSettings({
    env: { TINY_CLAW_STATE_DIR: ws.path('.state'), TINY_CLAW_WORKDIR: ws.dir, ...env },
    cwd: ws.dir,
    homeDir: ws.dir,
  });

const writeEnv = () =>
  new ScriptedProvider({
    turns: [
      { tool_calls: [{ name: 'write', arguments: { path: '.env', content: 'TOKEN=1\n' } }] },
      { text: 'env written' },
    ],
  });

async function pausedWrite(): Promise<string> {
  const app = await createApplication(settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'read,write' }), {
    provider: writeEnv(),
    logger: silent,
  });
  const paused = await app.run({ prompt: 'set the token' });
  expect(paused.stopReason).toBe('approval_required');
  return paused.approvalId as string;
}

describe('approving from an application that cannot run the tool', () => {
  it.each([
    [{ TINY_CLAW_ENABLED_TOOLS: 'read' }, 'not in TINY_CLAW_ENABLED_TOOLS (read)'],
    [
      { TINY_CLAW_ENABLED_TOOLS: 'read,write', TINY_CLAW_TOOL_DENYLIST: 'write' },
      'TINY_CLAW_TOOL_DENYLIST (write) denies it',
    ],
    [
      { TINY_CLAW_ENABLED_TOOLS: 'read,write', TINY_CLAW_TOOL_ALLOWLIST: 'read' },
      'not in TINY_CLAW_TOOL_ALLOWLIST (read)',
    ],
  ])('is refused before the claim, naming the setting (%o)', async (env, named) => {
    const id = await pausedWrite();
    const other = await createApplication(settingsWith(env), {
      provider: writeEnv(),
      logger: silent,
    });
    const refused = other.resumeApproval(id, { decision: 'approve', actor: 'cli:alice' });
    await expect(refused).rejects.toThrow(ConfigurationError);
    await expect(refused).rejects.toThrow(named);
    expect((await other.approval(id))?.status).toBe('pending');
    await expect(readFile(ws.path('.env'), 'utf8')).rejects.toThrow(/ENOENT/);

    const able = await createApplication(settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'read,write' }), {
      provider: new ScriptedProvider({ turns: [{ text: 'env written' }] }),
      logger: silent,
    });
    const resumed = await able.resumeApproval(id, { decision: 'approve', actor: 'cli:alice' });
    expect(resumed.stopReason).toBe('final');
    expect(await readFile(ws.path('.env'), 'utf8')).toBe('TOKEN=1\n');
  });
});
