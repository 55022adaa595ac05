import { access, readFile } from 'node:fs/promises';
import type { RunResult } from '@tiny-claw/core';
import { createTempWorkspace, runCli, type TempWorkspace, writeScript } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bin } from './__fixtures__/approval-cli.js';
import { cliSandbox } from './__fixtures__/cli-sandbox.js';

// GNU programs accept any unambiguous prefix of a long option, so an abbreviated option is the
// option it abbreviates. Through the built CLI, with approvals on and bash in the bubblewrap
// sandbox, a bash call whose abbreviated option writes a file, runs a program, reads directories
// recursively, reads files named in another file or sets the clock pauses for approval (exit 4)
// before anything runs.

let ws: TempWorkspace;
let outside: TempWorkspace;

const FILES: Record<string, string> = {
  'in.txt': 'b\na\n',
  // Run as shell code by `sort --com=sh` once sort spills its input to temporary files.
  'big.txt': 'touch pwned\n'.repeat(300),
  'f.txt': 'a\n',
  'sub/.env': 'SECRET=1\n',
  list: 'f.txt\0',
  'a/.env': 'ONE=1\n',
  'b/.env': 'TWO=2\n',
};

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    TINY_CLAW_STATE_DIR: outside.path('state'),
    TINY_CLAW_WORKDIR: ws.dir,
    TINY_CLAW_ENABLED_TOOLS: 'bash',
    TINY_CLAW_SANDBOX: 'bwrap',
    ...extra,
  };
}

beforeEach(async () => {
  ws = await createTempWorkspace(FILES);
  outside = await createTempWorkspace({}, 'tiny-claw-prefixes-');
});
afterEach(async () => {
  await ws.cleanup();
  await outside.cleanup();
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function runBash(
  command: string,
): Promise<{ code: number | null; stderr: string; result: RunResult }> {
  const script = await writeScript(outside.dir, {
    turns: [{ tool_calls: [{ name: 'bash', arguments: { command } }] }, { text: 'never' }],
  });
  const cli = await runCli({
    bin,
    args: ['run', 'go', '--json'],
    env: env({ TINY_CLAW_PROVIDER: 'scripted', TINY_CLAW_SCRIPT: script }),
    cwd: ws.dir,
    timeoutMs: 60_000,
  });
  let result: RunResult;
  try {
    result = JSON.parse(cli.stdout) as RunResult;
  } catch {
    throw new Error(`run printed no JSON (exit ${cli.code}):\n${cli.stderr}`);
  }
  return { code: cli.code, stderr: cli.stderr, result };
}

async function expectPaused(command: string, reason: string): Promise<void> {
  const { code, stderr, result } = await runBash(command);
  expect(code, stderr).toBe(4);
  expect(result.stopReason).toBe('approval_required');
  expect(result.approvalId).toMatch(/^ap_[A-Za-z0-9_-]{16,}$/);
  expect(stderr).toContain(reason);
}

describe('abbreviated long options in a bash call, through the CLI', () => {
  beforeEach(async (context) => {
    const sandbox = await cliSandbox();
    if (sandbox.active !== 'bwrap')
      context.skip(`bubblewrap is not usable here: ${sandbox.reason}`);
  });

  it('pauses sort --outp=FILE, which writes FILE, and FILE is not written', async () => {
    await expectPaused('sort --outp=sorted.txt in.txt', 'writes its output to a file (sort -o)');
    expect(await exists(ws.path('sorted.txt'))).toBe(false);
  });

  it('pauses sort --com=sh, which runs sh on the sorted data, and nothing runs', async () => {
    await expectPaused('sort --com=sh -S 1 big.txt', 'runs a compression program');
    expect(await exists(ws.path('pwned'))).toBe(false);
  });

  it('pauses sed --in-pl, which edits the file in place, and the file is unchanged', async () => {
    await expectPaused('sed --in-pl s/a/b/ f.txt', 'edits files in place (sed -i)');
    expect(await readFile(ws.path('f.txt'), 'utf8')).toBe('a\n');
  });

  it('pauses grep --rec, which reads hidden files such as .env below the directory', async () => {
    await expectPaused('grep --rec SECRET .', 'searches directories recursively');
  });

  it('pauses date --se, which sets the clock', async () => {
    await expectPaused('date --se 2020-01-01', 'sets the system clock (date -s)');
  });

  it('pauses wc --files0=LIST, which reads the files LIST names', async () => {
    await expectPaused('wc --files0=list', 'reads the files named in another file');
  });

  it('pauses diff --rec, which compares hidden files below both directories', async () => {
    await expectPaused('diff --rec a b', 'compares directories recursively');
  });
});
