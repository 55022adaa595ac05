import type { ToolExecutionContext } from '@tiny-claw/core';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { sandboxStatus } from '@tiny-claw/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../settings/load-settings.js';
import { runtimeRiskPolicy } from './approval-factory.js';

let ws: TempWorkspace;

beforeEach(async () => {
  ws = await createTempWorkspace({});
});
afterEach(() => ws.cleanup());

const settingsWith = (sandbox: string) =>
  loadSettings({
    env: {
      TINY_CLAW_STATE_DIR: ws.path('.state'),
      TINY_CLAW_WORKDIR: ws.dir,
      TINY_CLAW_SANDBOX: sandbox,
    },
    cwd: ws.dir,
    homeDir: ws.dir,
  });

function contextFor(workdir: string): ToolExecutionContext {
  const call = { id: '1', name: 'bash', arguments: {} };
  return {
    call,
    workdir,
    signal: new AbortController().signal,
    visibleTools: ['bash'],
    metadata: {},
  };
}

const writeOutside = {
  id: '1',
  name: 'bash',
  arguments: { command: 'echo x > /tmp/elsewhere.txt' },
};

describe('the runtime risk policy knows the bash sandbox in force', () => {
  it('asks for a write outside the workdir when TINY_CLAW_SANDBOX=off', async () => {
    const assess = runtimeRiskPolicy(settingsWith('off'));
    expect(await assess(writeOutside, contextFor(ws.dir))).toEqual({
      verdict: 'approval_required',
      reasons: ['writes outside the workdir (`> /tmp/elsewhere.txt`)'],
    });
  });

  it('judges TINY_CLAW_SANDBOX=auto by whether bubblewrap works here, as the bash tool does', async () => {
    const assess = runtimeRiskPolicy(settingsWith('auto'));
    const verdict = await assess(writeOutside, contextFor(ws.dir));
    const expected =
      sandboxStatus('auto').active === 'bwrap'
        ? {
            verdict: 'deny',
            reasons: ["writes outside the sandbox's writable area (`> /tmp/elsewhere.txt`)"],
          }
        : {
            verdict: 'approval_required',
            reasons: ['writes outside the workdir (`> /tmp/elsewhere.txt`)'],
          };
    expect(verdict).toEqual(expected);
  });
});
