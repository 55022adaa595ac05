import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadApplication } from '../load-app.js';
import type { Output } from '../output.js';
import { planCommand } from './plan.js';

let root: string;
const keys = ['TINY_CLAW_STATE_DIR', 'TINY_CLAW_WORKDIR', 'TINY_CLAW_PROVIDER'] as const;
const saved = Object.fromEntries(keys.map((key) => [key, process.env[key]]));

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tiny-claw-plan-cli-')));
  // The command reads settings from the environment, as a user's shell would give them.
  process.env.TINY_CLAW_STATE_DIR = join(root, '.state');
  process.env.TINY_CLAW_WORKDIR = root;
  process.env.TINY_CLAW_PROVIDER = 'echo';
});
afterEach(async () => {
  for (const key of keys) {
    const value = saved[key];
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await rm(root, { recursive: true, force: true });
});

async function plan(...argv: string[]) {
  let stdout = '';
  const out: Output = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: () => {},
    color: false,
    interactive: false,
  };
  const code = await planCommand(argv, out);
  return { code, stdout };
}

describe('tiny-claw plan', () => {
  it('says there is no plan for a session that has none, with exit 0', async () => {
    const result = await plan('show', '--session', 'auth');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No plan for session "auth" yet');
    expect(result.stdout).toContain('tiny-claw run --mode plan --session "auth"');
  });

  it('shows the plan a plan run wrote, as text and as JSON', async () => {
    const app = await loadApplication();
    await app.run({ prompt: 'build the parser', mode: 'plan' });
    const text = await plan('show');
    expect(text.stdout.startsWith('# PLAN.md')).toBe(true);
    expect(text.stdout).toContain('- [ ] TC-001 build the parser');
    expect(text.stdout.endsWith('Next TODO: TC-001 build the parser\n')).toBe(true);
    const json = JSON.parse((await plan('show', '--json')).stdout);
    expect(json).toMatchObject({
      exists: true,
      items: [{ id: 'TC-001', text: 'build the parser', done: false }],
      next: { id: 'TC-001', text: 'build the parser' },
    });
    expect(json.dir).toBe(join(root, '.state', 'sessions', json.session, 'plan'));
    expect((await plan('show', '--session', 'other')).stdout).toContain('No plan');
  });

  it('resets a plan, says which files it removed, and then finds nothing to remove', async () => {
    const app = await loadApplication();
    await app.run({ prompt: 'x', mode: 'plan' });
    const reset = await plan('reset');
    expect(reset.code).toBe(0);
    expect(reset.stdout).toMatch(
      /^Removed the plan of session "default":\n {2}\S+PLAN\.md\n {2}\S+TODO\.md\n$/,
    );
    expect((await plan('show')).stdout).toContain('No plan');
    expect((await plan('reset')).stdout).toContain('No plan to remove for session "default"');
  });
});
