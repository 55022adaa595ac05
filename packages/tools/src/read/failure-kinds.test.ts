import { mkdir, mkdtemp, realpath, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext, ToolOutput } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReadTool } from './index.js';

let base: string;
let root: string;
const tool = createReadTool();

async function read(
  args: Record<string, unknown>,
  visibleTools: readonly string[] = ['read', 'bash'],
  signal: AbortSignal = new AbortController().signal,
): Promise<ToolOutput> {
  const ctx: ToolContext = { workdir: root, signal, toolCallId: 'call-1', visibleTools };
  return tool.run(tool.parse(args), ctx);
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-read-kinds-')));
  root = path.join(base, 'w');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await writeFile(path.join(base, 'outside.txt'), 'outside\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('read failures carry the kind core acts on', () => {
  it.each([
    [
      'a path outside the workdir',
      { path: '../outside.txt' },
      'outside_workdir',
      'path_outside_root',
    ],
    ['a path with a NUL byte', { path: 'a\u0000b' }, 'invalid_arguments', 'invalid_path'],
    ['a missing file', { path: 'src/missing.ts' }, 'not_found', 'not_found'],
    ['a directory', { path: 'src' }, 'unsupported_target', 'is_directory'],
  ])('%s', async (_name, args, kind, errorType) => {
    const out = await read(args);
    expect(out.isError).toBe(true);
    expect(out.failure?.kind).toBe(kind);
    expect(out.failure?.code).toBe(errorType);
  });

  it('reports a cancelled run as cancelled', async () => {
    await writeFile(path.join(root, 'a.txt'), 'a\n');
    const controller = new AbortController();
    controller.abort();
    const out = await read({ path: 'a.txt' }, ['read'], controller.signal);
    expect(out.failure).toEqual({ kind: 'cancelled', code: 'cancelled' });
  });
});

describe('read advice for a missing file names only tools the model can call', () => {
  it('suggests listing the parent through bash when bash is visible', async () => {
    const out = await read({ path: 'src/missing.ts' }, ['read', 'bash']);
    expect(out.failure).toMatchObject({ kind: 'not_found', suggestedTool: 'bash' });
    expect(out.failure?.advice).toContain('call bash with `ls src`');
  });

  it('quotes a parent with spaces so the suggested command works as written', async () => {
    const out = await read({ path: 'my docs/missing.md' }, ['read', 'bash']);
    expect(out.failure?.advice).toContain("`ls 'my docs'`");
  });

  it('says no listing tool is available when bash is not visible', async () => {
    const out = await read({ path: 'src/missing.ts' }, ['read', 'edit']);
    expect(out.failure?.kind).toBe('not_found');
    expect(out.failure?.suggestedTool).toBeUndefined();
    expect(out.failure?.advice).toContain('No tool for listing directories');
    expect(out.failure?.advice).not.toContain('bash');
  });
});

describe('read advice for a file it cannot show never loops back to reading it', () => {
  it('a binary file points to bash when visible, and says not to read it again', async () => {
    await writeFile(path.join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    const out = await read({ path: 'logo.png' }, ['read', 'bash']);
    expect(out.failure).toMatchObject({ kind: 'unsupported_target', suggestedTool: 'bash' });
    expect(out.failure?.advice).toContain('do not read it again');
    expect(out.failure?.code).toBe('binary_file');
  });

  it('a binary file without bash says to tell the user, naming no tool', async () => {
    await writeFile(path.join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    const out = await read({ path: 'logo.png' }, ['read']);
    expect(out.failure?.kind).toBe('unsupported_target');
    expect(out.failure?.suggestedTool).toBeUndefined();
    expect(out.failure?.advice).not.toMatch(/bash|call read/i);
    expect(out.failure?.advice).toContain('Tell the user');
  });

  it('a file over the size limit is refused for good, with a way to look at a part of it', async () => {
    const big = path.join(root, 'huge.log');
    await writeFile(big, '');
    await truncate(big, 21 * 1024 * 1024);
    const withBash = await read({ path: 'huge.log' }, ['read', 'bash']);
    expect(withBash.failure?.kind).toBe('unsupported_target');
    expect(withBash.failure?.advice).toContain('do not read it again');
    expect(withBash.failure?.advice).toContain('head -n 100');
    const without = await read({ path: 'huge.log' }, ['read']);
    expect(without.failure?.advice).not.toContain('bash');
    expect(without.failure?.advice).toContain('no other tool here can open it');
  });

  it('a file in an encoding read cannot decode is an unsupported target', async () => {
    await writeFile(path.join(root, 'u32.txt'), Buffer.from([0xff, 0xfe, 0, 0, 0x61, 0, 0, 0]));
    const out = await read({ path: 'u32.txt' });
    expect(out.failure?.kind).toBe('unsupported_target');
    expect(out).toMatchObject({
      failure: { code: 'binary_file' },
      metadata: { encoding: 'UTF-32LE' },
    });
  });
});
