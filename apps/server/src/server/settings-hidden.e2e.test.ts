import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { createApplication } from '@tiny-claw/runtime';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadServerSettings } from './load-server-settings.js';

// The server's own settings file — its --env-file or the .env of its working directory — lies in
// the workdir here (the server runs in the deployment it works on): no tool may read or change it.

const SECRET = 'app-secret-0123456789abcdef';
let ws: TempWorkspace;

beforeEach(async () => {
  ws = await createTempWorkspace({
    '.env': `FEISHU_APP_SECRET=${SECRET}\n`,
    'ops.env': `FEISHU_APP_SECRET=${SECRET}\n`,
    'notes.txt': 'notes\n',
  });
});
afterEach(() => ws.cleanup());

type Call = { name: string; arguments: Record<string, unknown> };

/** What the tools answered to `calls`, made by a model in a server whose settings are in the workdir. */
async function observationsOf(envFile: string | undefined, calls: Call[]) {
  const { settings } = await loadServerSettings({
    env: {
      TINY_CLAW_STATE_DIR: ws.path('.state'),
      TINY_CLAW_ENABLED_TOOLS: 'read,write',
      TINY_CLAW_APPROVAL_PROVIDER: 'off',
    },
    cwd: ws.dir,
    homeDir: ws.path('home'),
    envFile,
  });
  const provider = new ScriptedProvider({
    turns: [{ tool_calls: calls }, { text: 'done' }],
  });
  const app = await createApplication(settings, { provider, front: 'server' });
  try {
    await app.run({ prompt: 'look' });
  } finally {
    await app.close();
  }
  return (provider.requests[1]?.messages ?? []).filter((m) => m.role === 'tool');
}

const read = (path: string): Call => ({ name: 'read', arguments: { path } });

describe("the server's settings file is out of every tool's reach", () => {
  it('refuses reading its working-directory .env, or the file named with --env-file', async () => {
    for (const [envFile, path] of [
      [undefined, '.env'],
      ['ops.env', 'ops.env'],
    ] as const) {
      const [refused, allowed] = await observationsOf(envFile, [read(path), read('notes.txt')]);
      expect(refused?.content).toContain('tiny-claw keeps its own settings');
      expect(refused?.content).not.toContain(SECRET);
      expect(allowed?.content).toContain('notes');
    }
  });

  it('refuses writing a .env into its working directory when it has none yet', async () => {
    await rm(ws.path('.env'));
    const [refused] = await observationsOf(undefined, [
      { name: 'write', arguments: { path: '.env', content: 'TINY_CLAW_SANDBOX=off\n' } },
    ]);
    expect(refused?.content).toContain('tiny-claw keeps its own settings');
    expect(existsSync(ws.path('.env'))).toBe(false);
  });
});
