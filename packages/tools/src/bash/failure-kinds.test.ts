import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext, ToolOutput } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashFailure } from './advice.js';
import { createBashTool } from './index.js';

let base: string;
let root: string;
const tool = createBashTool({ protectedPaths: ['.state'] });

async function bash(
  args: Record<string, unknown>,
  visibleTools: readonly string[] = ['bash', 'write'],
  signal: AbortSignal = new AbortController().signal,
): Promise<ToolOutput> {
  const ctx: ToolContext = { workdir: root, signal, toolCallId: 'call-1', visibleTools };
  return tool.run(tool.parse(args), ctx);
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-bash-kinds-')));
  root = path.join(base, 'w');
  await mkdir(path.join(root, '.state'), { recursive: true });
  await writeFile(path.join(root, 'file.txt'), 'f\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('bash failures carry the kind core acts on', () => {
  it('a non-zero exit is command_failed, keeping the exit code', async () => {
    const out = await bash({ command: 'echo oops >&2; exit 3' });
    expect(out.failure?.kind).toBe('command_failed');
    expect(out).toMatchObject({
      failure: { code: 'bash_command_failed' },
      metadata: { exit_code: 3 },
    });
    expect(out.failure?.advice).not.toContain('truncated');
  });

  it('a command that outlives timeout_seconds is a timeout', async () => {
    const out = await bash({ command: 'sleep 30', timeout_seconds: 1 });
    expect(out.failure?.kind).toBe('timeout');
    expect(out).toMatchObject({ failure: { code: 'bash_timeout' }, metadata: { exit_code: 124 } });
  }, 15_000);

  it('a run cancelled before the command started is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const out = await bash({ command: 'true' }, ['bash'], controller.signal);
    expect(out.failure).toEqual({ kind: 'cancelled', code: 'cancelled' });
  });

  it.each([
    ['a missing cwd', 'missing', 'not_found'],
    ['a cwd that is a file', 'file.txt', 'unsupported_target'],
    ['a cwd outside the workdir', '..', 'outside_workdir'],
    ['a cwd in the state dir', '.state', 'protected_path'],
  ])('%s', async (_name, cwd, kind) => {
    const out = await bash({ command: 'pwd', cwd });
    expect(out.failure?.kind).toBe(kind);
  });
});

describe('bash advice for a failed command', () => {
  it('adds the narrower-rerun note when the output was truncated', async () => {
    const out = await bash({ command: 'seq 1 100000; exit 1' });
    expect(out.metadata?.stdout_truncated).toBe(true);
    expect(out.failure?.kind).toBe('command_failed');
    expect(out.failure?.advice).toContain('The output was truncated');
    expect(out.failure?.advice).toContain('tail -n 50');
  });

  it('an over-long command points to write only when write is visible', async () => {
    const command = `true # ${'x'.repeat(200 * 1024)}`;
    const withWrite = await bash({ command }, ['bash', 'write']);
    expect(withWrite.failure).toMatchObject({ kind: 'invalid_arguments', suggestedTool: 'write' });
    const without = await bash({ command }, ['bash']);
    expect(without.failure?.suggestedTool).toBeUndefined();
    expect(without.failure?.advice).not.toContain('write');
  });
});

describe('bash advice for a timeout depends on what the command is', () => {
  const advise = (command: string) =>
    bashFailure('bash_timeout', { command, visibleTools: ['bash'], maxTimeoutSeconds: 600 });

  it('a long-running service is started in the background with a log and probed in the same command', () => {
    const failure = advise('npm run dev');
    expect(failure.kind).toBe('timeout');
    expect(failure.advice).toContain('`npm run dev > service.log 2>&1 &');
    expect(failure.advice).toContain('in the same command');
  });

  it('a test or build command is narrowed, not moved to the background', () => {
    const failure = advise('pnpm test');
    expect(failure.advice).toMatch(/^Narrow the scope: run one test file/);
    expect(failure.advice).toContain('Do not move tests or builds into the background');
  });

  it('anything else is narrowed or given more time, up to the limit', () => {
    const failure = advise('find / -name core');
    expect(failure.advice).toMatch(/^Narrow what the command does/);
    expect(failure.advice).toContain('at most 600');
  });

  it('the timeout observation states the facts and leaves the advice to the failure', async () => {
    const out = await bash({ command: 'sleep 30 # python3 -m http.server', timeout_seconds: 1 });
    expect(out.content).toContain('timed out after 1 s');
    expect(out.content).not.toContain('raise timeout_seconds');
    expect(out.failure?.advice).toContain('long-running service');
  }, 15_000);
});
