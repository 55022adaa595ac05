import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWriteTool } from './index.js';

const ALL_TOOLS = ['bash', 'edit', 'read', 'write'];

// A kill -9 in the middle of a write cannot be staged in a unit test; what it relies on can: a write that
// fails before the rename leaves the old content and no temp file. The failure is injected into
// rename(2), the last step of core's writeFileAtomic, so the temp file has been fully written.
const failRename = vi.hoisted(() => ({ on: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    rename: async (from: string, to: string) => {
      if (failRename.on) {
        throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
      }
      return actual.rename(from, to);
    },
  };
});

let base: string;
let root: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-write-fail-')));
  root = path.join(base, 'w');
  await mkdir(root);
  failRename.on = false;
});

afterEach(async () => {
  failRename.on = false;
  await rm(base, { recursive: true, force: true });
});

function ctx(): ToolContext {
  return {
    workdir: root,
    signal: new AbortController().signal,
    toolCallId: 'c',
    runId: 'r',
    visibleTools: ALL_TOOLS,
  };
}

describe('write: failure mid-write', () => {
  it('leaves the old content and no temp file when an overwrite fails', async () => {
    const tool = createWriteTool();
    await writeFile(path.join(root, 'a.txt'), 'old content\n');
    failRename.on = true;
    const out = await tool.run(
      tool.parse({ path: 'a.txt', content: 'x'.repeat(5_000_000) }),
      ctx(),
    );
    expect(out).toMatchObject({ isError: true, failure: { code: 'execution_error' } });
    expect(out.content).toContain('write tool failed for a.txt');
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('old content\n');
    expect(await readdir(root)).toEqual(['a.txt']);
  });

  it('leaves the old content and no temp file when an append fails', async () => {
    const tool = createWriteTool();
    await writeFile(path.join(root, 'log.txt'), 'line 1\n');
    failRename.on = true;
    const out = await tool.run(
      tool.parse({ path: 'log.txt', content: 'line 2\n', mode: 'append' }),
      ctx(),
    );
    expect(out.isError).toBe(true);
    expect(await readFile(path.join(root, 'log.txt'), 'utf8')).toBe('line 1\n');
    expect(await readdir(root)).toEqual(['log.txt']);
  });

  it('creates no file at all when writing a new file fails', async () => {
    const tool = createWriteTool();
    failRename.on = true;
    const out = await tool.run(tool.parse({ path: 'new.txt', content: 'x' }), ctx());
    expect(out.isError).toBe(true);
    expect(await readdir(root)).toEqual([]);
  });
});
