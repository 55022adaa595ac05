import { execFileSync } from 'node:child_process';
import {
  chmod,
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext, ToolOutput } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprintOf, ReadLedger } from '../file-state/index.js';
import { createWriteTool, WRITE_LIMITS } from './index.js';

const ALL_TOOLS = ['bash', 'edit', 'read', 'write'];

let base: string;
let root: string;
let outside: string;
let ledger: ReadLedger;

/** `null` = a call outside any run (no `runId`). */
function ctx(runId: string | null = 'run-1', signal?: AbortSignal): ToolContext {
  const context: ToolContext = {
    workdir: root,
    signal: signal ?? new AbortController().signal,
    toolCallId: 'call-1',
    visibleTools: ALL_TOOLS,
  };
  if (runId !== null) context.runId = runId;
  return context;
}

const plain = createWriteTool();

async function write(
  args: Record<string, unknown>,
  tool = plain,
  context: ToolContext = ctx(),
): Promise<ToolOutput> {
  return tool.run(tool.parse(args), context);
}

/** What the read tool records: the file's bytes and stat at read time. */
async function markRead(relative: string, runId = 'run-1'): Promise<void> {
  const abs = path.join(root, relative);
  ledger.recordRead(runId, abs, fingerprintOf(await readFile(abs), await stat(abs)));
}

async function fileMode(abs: string): Promise<number> {
  return (await stat(abs)).mode & 0o777;
}

async function exists(abs: string): Promise<boolean> {
  return lstat(abs).then(
    () => true,
    () => false,
  );
}

const hasMkfifo = (() => {
  try {
    execFileSync('mkfifo', ['--version'], { stdio: 'ignore' });
    return process.platform !== 'win32';
  } catch {
    return false;
  }
})();

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-write-')));
  root = path.join(base, 'w');
  outside = path.join(base, 's');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret'), 'TOP-SECRET\n');
  ledger = new ReadLedger();
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('write tool definition', () => {
  it('is not parallel-safe and exposes path/content/mode with overwrite as default', () => {
    expect(plain.name).toBe('write');
    expect(plain.parallelSafe).toBe(false);
    expect(Object.keys(plain.parameters.properties as object)).toEqual(['path', 'content', 'mode']);
    expect(plain.parse({ path: 'a', content: 'x' })).toEqual({
      path: 'a',
      content: 'x',
      mode: 'overwrite',
    });
  });

  it('rejects an unknown mode with the accepted values', () => {
    expect(() => plain.parse({ path: 'a', content: 'x', mode: 'prepend' })).toThrow(
      /mode must be one of: overwrite, append/,
    );
  });
});

describe('write: creating and replacing files', () => {
  it('creates a new file and its parent directories, reporting path, mode, bytes and lines', async () => {
    const out = await write({ path: 'a/b/new.txt', content: 'héllo\nworld\n' });
    expect(out.isError).toBe(false);
    expect(out.content).toBe('path=a/b/new.txt\nmode=overwrite\nbytes=13\nlines=2\ncreated=true');
    expect(await readFile(path.join(root, 'a/b/new.txt'), 'utf8')).toBe('héllo\nworld\n');
    expect(out.metadata).toMatchObject({ path: 'a/b/new.txt', bytes: 13, lines: 2, created: true });
  });

  it('gives a new file mode 0644', async () => {
    await write({ path: 'new.txt', content: 'x' });
    expect(await fileMode(path.join(root, 'new.txt'))).toBe(WRITE_LIMITS.newFileMode);
  });

  it('accepts an absolute path inside the workdir', async () => {
    const out = await write({ path: path.join(root, 'abs.txt'), content: 'x' });
    expect(out.isError).toBe(false);
    expect(await readFile(path.join(root, 'abs.txt'), 'utf8')).toBe('x');
  });

  it('keeps the existing file mode on overwrite and on append', async () => {
    const script = path.join(root, 'run.sh');
    await writeFile(script, '#!/bin/sh\n');
    await chmod(script, 0o750);
    await write({ path: 'run.sh', content: '#!/bin/sh\necho hi\n' });
    expect(await fileMode(script)).toBe(0o750);
    const secret = path.join(root, 'private.txt');
    await writeFile(secret, 'a\n');
    await chmod(secret, 0o600);
    await write({ path: 'private.txt', content: 'b\n', mode: 'append' });
    expect(await fileMode(secret)).toBe(0o600);
    expect(await readFile(secret, 'utf8')).toBe('a\nb\n');
  });

  it('appends to the end of an existing file and reports the new size', async () => {
    await writeFile(path.join(root, 'log.txt'), 'one\n');
    const out = await write({ path: 'log.txt', content: 'two\n', mode: 'append' });
    expect(out.content).toBe('path=log.txt\nmode=append\nbytes=4\nlines=1\nfile_bytes=8');
    expect(await readFile(path.join(root, 'log.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('creates the file when appending to a missing one', async () => {
    const out = await write({ path: 'fresh.txt', content: 'x', mode: 'append' });
    expect(out.isError).toBe(false);
    expect(await readFile(path.join(root, 'fresh.txt'), 'utf8')).toBe('x');
  });

  it('writes an empty file and counts zero lines', async () => {
    const out = await write({ path: 'empty.txt', content: '' });
    expect(out.content).toContain('bytes=0\nlines=0');
    expect(await readFile(path.join(root, 'empty.txt'), 'utf8')).toBe('');
  });

  it('writes through an in-workdir symlink to its target and keeps the link', async () => {
    await mkdir(path.join(root, 'real'));
    await writeFile(path.join(root, 'real', 'f.txt'), 'old');
    await symlink('real', path.join(root, 'alias'));
    const out = await write({ path: 'alias/f.txt', content: 'new' });
    expect(out.isError).toBe(false);
    expect(await readFile(path.join(root, 'real', 'f.txt'), 'utf8')).toBe('new');
    expect((await lstat(path.join(root, 'alias'))).isSymbolicLink()).toBe(true);
  });

  it('notes that other hard links keep the old content', async () => {
    await writeFile(path.join(root, 'a.txt'), 'old');
    await link(path.join(root, 'a.txt'), path.join(root, 'b.txt'));
    const out = await write({ path: 'a.txt', content: 'new' });
    expect(out.content).toContain('2 hard links');
    expect(await readFile(path.join(root, 'b.txt'), 'utf8')).toBe('old');
  });

  it('leaves no temp file behind after a successful write', async () => {
    await write({ path: 'd/x.txt', content: 'x' });
    expect(await readdir(path.join(root, 'd'))).toEqual(['x.txt']);
  });
});

describe('write: refusals', () => {
  it('refuses paths outside the workdir and creates nothing there', async () => {
    for (const target of ['../s/evil.txt', path.join(outside, 'evil.txt'), '../../x.txt']) {
      const out = await write({ path: target, content: 'pwned' });
      expect(out.failure?.code, target).toBe('path_outside_root');
    }
    expect(await readdir(outside)).toEqual(['secret']);
  });

  it('refuses to write through a symlink to an outside file, which stays unchanged', async () => {
    await symlink(path.join(outside, 'secret'), path.join(root, 'notes.txt'));
    const out = await write({ path: 'notes.txt', content: 'pwned' });
    expect(out).toMatchObject({ isError: true, failure: { code: 'path_outside_root' } });
    expect(await readFile(path.join(outside, 'secret'), 'utf8')).toBe('TOP-SECRET\n');
    expect((await lstat(path.join(root, 'notes.txt'))).isSymbolicLink()).toBe(true);
  });

  it('refuses a dangling symlink to an outside path and creates nothing outside', async () => {
    await symlink(path.join(outside, 'newfile'), path.join(root, 'new'));
    const out = await write({ path: 'new', content: 'pwned' });
    expect(out.failure?.code).toBe('path_outside_root');
    expect(await exists(path.join(outside, 'newfile'))).toBe(false);
  });

  it('refuses .git in any spelling, even when it does not exist', async () => {
    await mkdir(path.join(root, '.git'));
    for (const target of [
      '.git/config',
      '.GIT/config',
      '.git./config',
      '.git /config',
      'sub/.git/hooks/pre-commit',
    ]) {
      const out = await write({ path: target, content: 'x' });
      expect(out.failure?.code, target).toBe('protected_path');
    }
    expect(await readdir(path.join(root, '.git'))).toEqual([]);
    expect(await exists(path.join(root, 'sub'))).toBe(false);
  });

  it('refuses the git dir named by a gitdir: file', async () => {
    const gitdir = path.join(root, 'gd');
    await mkdir(path.join(gitdir, 'hooks'), { recursive: true });
    await writeFile(path.join(root, '.git'), 'gitdir: gd\n');
    const out = await write({ path: 'gd/hooks/post-checkout', content: '#!/bin/sh\n' });
    expect(out.failure?.code).toBe('protected_path');
    expect(await readdir(path.join(gitdir, 'hooks'))).toEqual([]);
  });

  it('refuses the protected state dir even before it exists', async () => {
    const guarded = createWriteTool({ protectedPaths: ['.tiny-claw'] });
    const out = await write({ path: '.tiny-claw/approvals/a.json', content: '{}' }, guarded);
    expect(out.failure?.code).toBe('protected_path');
    expect(await exists(path.join(root, '.tiny-claw'))).toBe(false);
  });

  it('refuses a directory, a trailing slash and a parent that is a file', async () => {
    await mkdir(path.join(root, 'dir'));
    await writeFile(path.join(root, 'file.txt'), 'f');
    expect((await write({ path: 'dir', content: 'x' })).failure?.code).toBe('is_directory');
    expect((await write({ path: 'newdir/', content: 'x' })).failure?.code).toBe('invalid_path');
    const nested = await write({ path: 'file.txt/child.txt', content: 'x' });
    expect(nested.isError).toBe(true);
    expect(await readFile(path.join(root, 'file.txt'), 'utf8')).toBe('f');
  });

  it.runIf(hasMkfifo)('refuses to write to a FIFO without blocking', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const started = Date.now();
    const out = await write({ path: 'pipe', content: 'x' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(out.failure?.code).toBe('not_regular_file');
    expect((await lstat(path.join(root, 'pipe'))).isFIFO()).toBe(true);
  });

  it('refuses content over 20 MB and writes nothing', async () => {
    const out = await write({
      path: 'big.txt',
      content: 'x'.repeat(WRITE_LIMITS.maxContentBytes + 1),
    });
    expect(out.failure?.code).toBe('content_too_large');
    expect(out.failure?.kind).toBe('invalid_arguments');
    expect(await exists(path.join(root, 'big.txt'))).toBe(false);
  });

  it('refuses an append that would grow the file over 20 MB', async () => {
    await writeFile(path.join(root, 'big.log'), Buffer.alloc(WRITE_LIMITS.maxContentBytes, 0x61));
    const out = await write({ path: 'big.log', content: 'more', mode: 'append' });
    expect(out.failure?.code).toBe('file_too_large');
    expect((await stat(path.join(root, 'big.log'))).size).toBe(WRITE_LIMITS.maxContentBytes);
  });

  it('does not write when the run is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const out = await write(
      { path: 'x.txt', content: 'x' },
      plain,
      ctx('run-1', controller.signal),
    );
    expect(out.failure?.code).toBe('cancelled');
    expect(await exists(path.join(root, 'x.txt'))).toBe(false);
  });
});

describe('write: read before write (read ledger)', () => {
  it('refuses to overwrite an existing file that was not read in this run', async () => {
    const tool = createWriteTool({ readLedger: ledger });
    await writeFile(path.join(root, 'a.txt'), 'original\n');
    const out = await write({ path: 'a.txt', content: 'replaced\n' }, tool);
    expect(out).toMatchObject({
      isError: true,
      failure: { kind: 'stale_read', code: 'file_not_read', suggestedTool: 'read' },
    });
    expect(out.content).toContain('was not read in this run');
    expect(out.failure?.advice).toContain('Call read on a.txt first');
    const appended = await write({ path: 'a.txt', content: 'more\n', mode: 'append' }, tool);
    expect(appended.failure?.code).toBe('file_not_read');
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('original\n');
  });

  it('allows the write after a read in the same run, and consecutive writes without re-reading', async () => {
    const tool = createWriteTool({ readLedger: ledger });
    await writeFile(path.join(root, 'a.txt'), 'original\n');
    await markRead('a.txt');
    expect((await write({ path: 'a.txt', content: 'v2\n' }, tool)).isError).toBe(false);
    expect((await write({ path: 'a.txt', content: 'v3\n', mode: 'append' }, tool)).isError).toBe(
      false,
    );
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('v2\nv3\n');
  });

  it('a read in another run does not count', async () => {
    const tool = createWriteTool({ readLedger: ledger });
    await writeFile(path.join(root, 'a.txt'), 'original\n');
    await markRead('a.txt', 'run-0');
    const out = await write({ path: 'a.txt', content: 'x' }, tool, ctx('run-1'));
    expect(out.failure?.code).toBe('file_not_read');
  });

  it('does not check calls outside a run (no run id), like read and edit', async () => {
    const tool = createWriteTool({ readLedger: ledger });
    await writeFile(path.join(root, 'a.txt'), 'original\n');
    expect((await write({ path: 'a.txt', content: 'x' }, tool, ctx(null))).isError).toBe(false);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('x');
  });

  it('refuses when the file was modified since it was read', async () => {
    const tool = createWriteTool({ readLedger: ledger });
    const abs = path.join(root, 'a.txt');
    await writeFile(abs, 'original\n');
    await markRead('a.txt');
    await writeFile(abs, 'changed by someone else\n');
    const out = await write({ path: 'a.txt', content: 'mine\n' }, tool);
    expect(out).toMatchObject({
      isError: true,
      failure: { code: 'file_modified_since_read' },
    });
    expect(out.content).toContain('modified since it was last read');
    expect(await readFile(abs, 'utf8')).toBe('changed by someone else\n');
  });

  it('needs no read to create a new file, and records it as read afterwards', async () => {
    const tool = createWriteTool({ readLedger: ledger });
    expect((await write({ path: 'new.txt', content: 'one\n' }, tool)).isError).toBe(false);
    expect((await write({ path: 'new.txt', content: 'two\n' }, tool)).isError).toBe(false);
    expect(await readFile(path.join(root, 'new.txt'), 'utf8')).toBe('two\n');
  });

  it('concurrent writes to one file are serialised; every append lands, none is torn', async () => {
    const tool = createWriteTool({ readLedger: ledger });
    await writeFile(path.join(root, 'log.txt'), '');
    await markRead('log.txt');
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i}\n`);
    const outs = await Promise.all(
      lines.map((line) => write({ path: 'log.txt', content: line, mode: 'append' }, tool)),
    );
    expect(outs.every((out) => !out.isError)).toBe(true);
    const text = await readFile(path.join(root, 'log.txt'), 'utf8');
    expect(text.split('\n').filter(Boolean).sort()).toEqual(lines.map((l) => l.trim()).sort());
    expect(await readdir(root)).toEqual(['log.txt']);
  });

  it('concurrent overwrites leave exactly one complete version', async () => {
    const tool = createWriteTool({ readLedger: ledger });
    await writeFile(path.join(root, 'a.txt'), 'original');
    await markRead('a.txt');
    const versions = Array.from({ length: 8 }, (_, i) => String(i).repeat(100_000));
    await Promise.all(versions.map((content) => write({ path: 'a.txt', content }, tool)));
    expect(versions).toContain(await readFile(path.join(root, 'a.txt'), 'utf8'));
  });
});
