import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const tsx = createRequire(import.meta.url).resolve('tsx');

let cwd: string;
let home: string;
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'tiny-claw-examples-'));
  home = await mkdtemp(join(tmpdir(), 'tiny-claw-examples-home-'));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true, maxRetries: 3 });
  await rm(home, { recursive: true, force: true, maxRetries: 3 });
});

/** Run one example as a user would (`node --import tsx src/<name>.ts`), in an empty folder. */
function runExample(name: string): { stdout: string; stderr: string; status: number | null } {
  const program = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  const { OPENAI_API_KEY: _openai, ANTHROPIC_API_KEY: _anthropic, ...env } = process.env;
  const run = spawnSync(process.execPath, ['--import', tsx, program], {
    cwd,
    env: { ...env, HOME: home },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { stdout: run.stdout, stderr: run.stderr, status: run.status };
}

describe('the library examples', () => {
  it('timeout: a run given AbortSignal.timeout ends cancelled, not with an answer', () => {
    const run = runExample('timeout');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('stopReason: cancelled\nstopped within 10 s: true\n');
  });

  it('session: a named session remembers, a run without a session starts fresh', () => {
    const run = runExample('session');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      "an unnamed run remembers the one before: false\nalice's second run remembers her first: true\n",
    );
  });

  it('system prompt: systemPrompt replaces the built-in persona and instructions still follow', () => {
    const run = runExample('system-prompt');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      'first system message: You write release notes for end users: short bullet points, no jargon.\n' +
        'mentions the built-in persona: false\n' +
        'answer: - Faster start-up\n',
    );
  });

  it('approval: a run paused in one process is approved and continued in another, and the call runs once', () => {
    const run = runExample('approval');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\[agent, pid (\d+)\] approval_required: .*\.env/);
    expect(lines[1]).toMatch(/^\[reviewer, pid (\d+)\] final: The token is set\.$/);
    const [agentPid, reviewerPid] = lines.slice(0, 2).map((line) => /pid (\d+)/.exec(line)?.[1]);
    expect(agentPid).not.toBe(reviewerPid);
    expect(lines[2]).toBe('[reviewer] .env now holds: TOKEN=1');
  });

  it('no example writes into the folder it is run from', async () => {
    for (const name of ['timeout', 'session', 'system-prompt']) runExample(name);
    expect(await readdir(cwd)).toEqual([]);
  });
});
