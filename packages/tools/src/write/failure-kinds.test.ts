import { mkdir, mkdtemp, realpath, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext, ToolOutput } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReadLedger } from '../file-state/read-ledger.js';
import { createReadTool } from '../read/index.js';
import { createWriteTool } from './index.js';

let base: string;
let root: string;
let ledger: ReadLedger;

function ctx(visibleTools: readonly string[], signal = new AbortController().signal): ToolContext {
  return { workdir: root, signal, toolCallId: 'call-1', runId: 'run-1', visibleTools };
}

async function write(
  args: Record<string, unknown>,
  visibleTools: readonly string[] = ['read', 'write', 'edit', 'bash'],
  signal?: AbortSignal,
): Promise<ToolOutput> {
  const tool = createWriteTool({ readLedger: ledger, protectedPaths: ['.state'] });
  return tool.run(tool.parse(args), ctx(visibleTools, signal));
}

async function read(file: string): Promise<void> {
  const tool = createReadTool({ readLedger: ledger });
  const out = await tool.run(tool.parse({ path: file }), ctx(['read']));
  expect(out.isError, out.content).toBe(false);
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-write-kinds-')));
  root = path.join(base, 'w');
  await mkdir(path.join(root, 'dir'), { recursive: true });
  await writeFile(path.join(root, 'a.txt'), 'original\n');
  ledger = new ReadLedger();
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('write failures carry the kind core acts on', () => {
  it.each([
    ['a path outside the workdir', '../escape.txt', 'outside_workdir', 'path_outside_root'],
    ['a path inside .git', '.git/config', 'protected_path', 'protected_path'],
    ['a path inside the state dir', '.state/x.json', 'protected_path', 'protected_path'],
    ['a path ending in a separator', 'newdir/', 'invalid_arguments', 'invalid_path'],
    ['a directory', 'dir', 'unsupported_target', 'is_directory'],
  ])('%s', async (_name, file, kind, errorType) => {
    const out = await write({ path: file, content: 'x' });
    expect(out.isError).toBe(true);
    expect(out.failure?.kind).toBe(kind);
    expect(out.failure?.code).toBe(errorType);
  });

  it('reports a cancelled run as cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const out = await write({ path: 'new.txt', content: 'x' }, ['write'], controller.signal);
    expect(out.failure).toEqual({ kind: 'cancelled', code: 'cancelled' });
  });
});

describe('write advice for an unread or changed file points to read only when it is visible', () => {
  it('an unread file is a stale read that suggests read (and edit for partial changes)', async () => {
    const out = await write({ path: 'a.txt', content: 'replaced\n' });
    expect(out.failure).toMatchObject({ kind: 'stale_read', suggestedTool: 'read' });
    expect(out.failure?.advice).toContain('Call read on a.txt first');
    expect(out.failure?.advice).toContain('use edit');
  });

  it('without read visible, says the file cannot be replaced safely and suggests no tool', async () => {
    const out = await write({ path: 'a.txt', content: 'replaced\n' }, ['write']);
    expect(out.failure?.kind).toBe('stale_read');
    expect(out.failure?.suggestedTool).toBeUndefined();
    expect(out.failure?.advice).toContain('No tool for reading files');
    expect(out.failure?.advice).not.toMatch(/\b(read|edit) on\b|use edit/);
  });

  it('a file changed since it was read is a stale read that asks for a fresh read', async () => {
    await read('a.txt');
    const later = new Date(Date.now() + 5_000);
    await utimes(path.join(root, 'a.txt'), later, later);
    const out = await write({ path: 'a.txt', content: 'replaced\n' });
    expect(out.failure?.code).toBe('file_modified_since_read');
    expect(out.failure).toMatchObject({ kind: 'stale_read', suggestedTool: 'read' });
    expect(out.failure?.advice).toContain('Call read on a.txt again');
    const blind = await write({ path: 'a.txt', content: 'replaced\n' }, ['write', 'bash']);
    expect(blind.failure?.suggestedTool).toBeUndefined();
    expect(blind.failure?.advice).toContain('no tool for reading files');
  });
});

describe('write advice for a protected path mentions git through bash only when bash is visible', () => {
  it('with bash', async () => {
    const out = await write({ path: '.git/HEAD', content: 'x' }, ['write', 'bash']);
    expect(out.failure?.advice).toContain('run git commands with bash');
    expect(out.content).not.toContain('bash');
  });

  it('without bash', async () => {
    const out = await write({ path: '.git/HEAD', content: 'x' }, ['write', 'read']);
    expect(out.failure?.advice).not.toContain('bash');
    expect(out.failure?.advice).toContain('ask the user');
  });
});

/** Advice that sends the model back to read, which would refuse the file again. */
const LOOPS_TO_READ = /call read on [^,;]*\b(first|again)|read (it|the file) (first|again)/i;

describe('write over an existing file that read refuses does not loop back to "read it first"', () => {
  it('a binary file: read cannot show it, so the advice says so and points to bash', async () => {
    await writeFile(path.join(root, 'logo.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
    const out = await write({ path: 'logo.bin', content: 'text\n' });
    expect(out.isError).toBe(true);
    expect(out.failure?.code).toBe('binary_file');
    expect(out.content).toContain('binary file, which read cannot show');
    expect(out.failure).toMatchObject({ kind: 'unsupported_target', suggestedTool: 'bash' });
    expect(out.failure?.advice).toContain('do not call read on this one');
    expect(out.failure?.advice).toContain('`xxd logo.bin | head`');
    expect(out.failure?.advice).not.toMatch(LOOPS_TO_READ);
  });

  it('a binary file with only write visible: no tool named but write, no read loop', async () => {
    await writeFile(path.join(root, 'logo.bin'), Buffer.from([0, 1, 2, 3]));
    const out = await write({ path: 'logo.bin', content: 'text\n' }, ['write']);
    expect(out.failure?.code).toBe('binary_file');
    expect(out.failure?.suggestedTool).toBeUndefined();
    expect(out.failure?.advice).not.toMatch(/bash|call read|\bedit\b/i);
    expect(out.failure?.advice).toContain('new path');
  });

  it('a file over the size read can show: the advice says so and points to bash', async () => {
    const big = path.join(root, 'big.log');
    await writeFile(big, 'log line\n');
    await truncate(big, 20 * 1024 * 1024 + 1);
    const out = await write({ path: 'big.log', content: 'short\n' });
    expect(out.failure?.code).toBe('file_too_large_to_read');
    expect(out.content).toContain('over the 20 MB that read can show');
    expect(out.failure).toMatchObject({ kind: 'unsupported_target', suggestedTool: 'bash' });
    expect(out.failure?.advice).not.toMatch(LOOPS_TO_READ);
  });

  it('a text file still asks for a read first', async () => {
    const out = await write({ path: 'a.txt', content: 'replaced\n' });
    expect(out.failure?.code).toBe('file_not_read');
  });
});
