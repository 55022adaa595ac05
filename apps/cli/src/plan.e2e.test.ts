import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace, runCli, type TempWorkspace, writeScript } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await createTempWorkspace();
});
afterEach(() => ws.cleanup());

const planText = [
  '<PLAN_MD>',
  '# PLAN.md',
  '',
  '## Goal',
  'Build X in two steps.',
  '</PLAN_MD>',
  '<TODO_MD>',
  '# TODO.md',
  '',
  '- [ ] TC-001 Create the skeleton',
  '- [ ] TC-002 Add the tests',
  '</TODO_MD>',
].join('\n');

async function cli(args: string[], turns: unknown[]) {
  const script = await writeScript(ws.dir, { turns } as never, `script-${Math.random()}.json`);
  return runCli({
    bin,
    args,
    cwd: ws.dir,
    env: {
      TINY_CLAW_STATE_DIR: ws.path('.state'),
      TINY_CLAW_WORKDIR: ws.dir,
      TINY_CLAW_PROVIDER: 'scripted',
      TINY_CLAW_SCRIPT: script,
    },
  });
}

async function planDir(): Promise<string> {
  const [key] = await readdir(ws.path('.state/sessions'));
  return ws.path(`.state/sessions/${key}/plan`);
}

describe('plan modes through the CLI', () => {
  it('creates PLAN.md and TODO.md, then shows the plan again without calling the model', async () => {
    const first = await cli(['run', 'build X', '--mode', 'plan'], [{ text: planText }]);
    expect(first.code, first.stderr).toBe(0);
    const dir = await planDir();
    expect(await readFile(join(dir, 'PLAN.md'), 'utf8')).toContain('Build X in two steps.');
    expect(await readFile(join(dir, 'TODO.md'), 'utf8')).toContain(
      '- [ ] TC-001 Create the skeleton',
    );
    // A model call now would answer the first scripted turn, which says something else entirely.
    const again = await cli(
      ['run', 'build X', '--mode', 'plan', '--json'],
      [{ text: 'MODEL WAS CALLED' }],
    );
    const result = JSON.parse(again.stdout);
    expect(result).toMatchObject({ stopReason: 'final', mode: 'plan' });
    expect(result.text).toContain('TC-001 Create the skeleton');
    expect(result.text).not.toContain('MODEL WAS CALLED');
    const show = await cli(['plan', 'show'], []);
    expect(show.stdout).toContain('Next TODO: TC-001 Create the skeleton');
  });

  it('plan-act marks a completed TODO [x] and records a blocker for a blocked one', async () => {
    await cli(['run', 'build X', '--mode', 'plan'], [{ text: planText }]);
    const run = await cli(
      ['run', 'build X', '--mode', 'plan-act', '--json'],
      [
        { text: 'Skeleton created.\nPLAN_STEP_STATUS: completed' },
        { text: 'PLAN_STEP_STATUS: blocked\nThe test runner is missing from the image.' },
      ],
    );
    expect(run.code, run.stderr).toBe(0);
    const todo = await readFile(join(await planDir(), 'TODO.md'), 'utf8');
    expect(todo).toContain('- [x] TC-001 Create the skeleton');
    expect(todo).toContain('- [ ] TC-002 Add the tests');
    expect(todo).toMatch(/## Blockers[\s\S]*TC-002: .*test runner is missing/);
    const reset = await cli(['plan', 'reset'], []);
    expect(reset.code).toBe(0);
    await expect(readFile(join(await planDir(), 'TODO.md'), 'utf8')).rejects.toThrow();
  });
});
