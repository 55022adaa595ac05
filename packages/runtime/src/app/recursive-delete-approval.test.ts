import { mkdir, stat, writeFile } from 'node:fs/promises';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../settings/load-settings.js';
import { createApplication } from './create-application.js';

// A recursive delete inside the workdir is not refused: the run pauses for approval, and once
// approved the command runs.

let ws: TempWorkspace;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

beforeEach(async () => {
  ws = await createTempWorkspace({});
  await mkdir(ws.path('build/nested'), { recursive: true });
  await writeFile(ws.path('build/nested/out.js'), 'x\n');
});
afterEach(() => ws.cleanup());

const settings = () =>
  loadSettings({
    env: {
      TINY_CLAW_STATE_DIR: ws.path('.state'),
      TINY_CLAW_WORKDIR: ws.dir,
      TINY_CLAW_ENABLED_TOOLS: 'bash',
      TINY_CLAW_SANDBOX: 'off',
    },
    cwd: ws.dir,
    homeDir: ws.dir,
  });

describe('a recursive delete inside the workdir with the approval gate', () => {
  it.each(['rm -rf build', 'rm -r -f ./build/', 'rm --recursive build'])(
    '`%s` pauses for approval, and runs once approved',
    async (command) => {
      const app = await createApplication(settings(), {
        provider: new ScriptedProvider({
          turns: [{ tool_calls: [{ name: 'bash', arguments: { command } }] }, { text: 'cleaned' }],
        }),
        logger: silent,
      });
      const paused = await app.run({ prompt: 'clean the build' });
      expect(paused.stopReason).toBe('approval_required');
      expect((await stat(ws.path('build'))).isDirectory()).toBe(true);

      const resumed = await app.resumeApproval(paused.approvalId as string, {
        decision: 'approve',
        actor: 'cli:alice',
      });
      expect(resumed.stopReason).toBe('final');
      await expect(stat(ws.path('build'))).rejects.toThrow(/ENOENT/);
    },
  );

  it('refuses `rm -rf .` without pausing, and the workdir keeps its files', async () => {
    const app = await createApplication(settings(), {
      provider: new ScriptedProvider({
        turns: [
          { tool_calls: [{ name: 'bash', arguments: { command: 'rm -rf .' } }] },
          { text: 'refused' },
        ],
      }),
      logger: silent,
    });
    const run = await app.run({ prompt: 'clean everything' });
    expect(run.stopReason).toBe('final');
    expect((await stat(ws.path('build/nested/out.js'))).isFile()).toBe(true);
  });
});
