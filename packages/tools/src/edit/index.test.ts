import { execFileSync } from 'node:child_process';
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  truncate,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext, ToolOutput } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../file-state/fingerprint.js';
import { ReadLedger } from '../file-state/read-ledger.js';
import { createReadTool } from '../read/index.js';
import { createEditTool, type EditToolOptions } from './index.js';

const ALL_TOOLS = ['bash', 'edit', 'read', 'write'];

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-edit-')));
  root = path.join(base, 'w');
  outside = path.join(base, 's');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret'), 'TOP-SECRET-CONTENT\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function ctx(runId?: string): ToolContext {
  const context: ToolContext = {
    workdir: root,
    signal: new AbortController().signal,
    toolCallId: 'call-1',
    visibleTools: ALL_TOOLS,
  };
  if (runId !== undefined) context.runId = runId;
  return context;
}

async function edit(
  args: Record<string, unknown>,
  options: EditToolOptions = {},
  runId?: string,
): Promise<ToolOutput> {
  const tool = createEditTool(options);
  return tool.run(tool.parse(args), ctx(runId));
}

async function put(name: string, content: string | Buffer): Promise<string> {
  const file = path.join(root, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  return file;
}

const text = (file: string) => readFile(file, 'utf8');

/** What the read tool records for a file, done by hand. */
async function recordRead(ledger: ReadLedger, runId: string, file: string): Promise<void> {
  ledger.recordRead(runId, file, fingerprintOf(await readFile(file), await stat(file)));
}

describe('edit tool definition', () => {
  it('is not parallel-safe and exposes path/old_text/new_text/replace_all', () => {
    const tool = createEditTool();
    expect(tool.name).toBe('edit');
    expect(tool.parallelSafe).toBe(false);
    expect(Object.keys(tool.parameters.properties as object)).toEqual([
      'path',
      'old_text',
      'new_text',
      'replace_all',
    ]);
    expect(tool.parse({ path: 'a', old_text: 'x', new_text: 'y' })).toMatchObject({
      replace_all: false,
    });
  });
});

describe('edit replaces exactly one match', () => {
  it('applies an exact edit and reports strategy, line and a numbered snippet', async () => {
    const file = await put('src/a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const out = await edit({
      path: 'src/a.ts',
      old_text: 'const b = 2;',
      new_text: 'const b = 20;',
    });
    expect(out.isError).toBe(false);
    expect(await text(file)).toBe('const a = 1;\nconst b = 20;\nconst c = 3;\n');
    expect(out.content).toContain('strategy=exact');
    expect(out.content).toContain('replacements=1');
    expect(out.content).toContain('start_line=2');
    expect(out.content).toContain('snippet:\n1: const a = 1;\n2: const b = 20;\n3: const c = 3;');
    expect(out.metadata).toMatchObject({ path: 'src/a.ts', strategy: 'exact', start_line: 2 });
  });

  it('writes a correctly indented result when old_text was copied at the wrong depth', async () => {
    const file = await put('a.py', 'class A:\n    def run(self):\n        go()\n');
    const out = await edit({
      path: 'a.py',
      old_text: 'def run(self):\n    go()',
      new_text: 'def run(self):\n    if ready:\n        go()',
    });
    expect(out.isError).toBe(false);
    expect(out.content).toContain('strategy=indentation_flexible');
    expect(await text(file)).toBe(
      'class A:\n    def run(self):\n        if ready:\n            go()\n',
    );
  });

  it('never lands part-way into a line when old_text spans lines: a trimmed match takes whole lines, re-based', async () => {
    const ledger = new ReadLedger();
    const file = await put('f.py', 'def f():\n    x = 1\n    return x\n');
    const read = createReadTool({ readLedger: ledger });
    const seen = await read.run(read.parse({ path: 'f.py' }), ctx('run-1'));
    expect(seen.isError).toBe(false);
    const out = await edit(
      { path: 'f.py', old_text: '\nx = 1\n', new_text: '\n    x = 2\n' },
      { readLedger: ledger },
      'run-1',
    );
    expect(out.isError, out.content).toBe(false);
    expect(out.content).toContain('strategy=trimmed');
    expect(out.content).toContain('start_line=2');
    // Not `        x = 2` (8 spaces), which Python refuses with an IndentationError.
    expect(await text(file)).toBe('def f():\n    x = 2\n    return x\n');
  });

  it('reports line_number_prefix_stripped when "N: " prefixes from read had to be dropped', async () => {
    const file = await put('a.txt', 'one\ntwo\nthree\n');
    const out = await edit({
      path: 'a.txt',
      old_text: '2: two\n3: three',
      new_text: '2: TWO\n3: three',
    });
    expect(out.isError).toBe(false);
    expect(out.content).toContain('strategy=line_number_prefix_stripped+exact');
    expect(await text(file)).toBe('one\nTWO\nthree\n');
  });

  it('deletes old_text when new_text is empty', async () => {
    const file = await put('a.txt', 'keep\ndrop me\nkeep too\n');
    const out = await edit({ path: 'a.txt', old_text: 'drop me\n', new_text: '' });
    expect(out.isError).toBe(false);
    expect(await text(file)).toBe('keep\nkeep too\n');
  });

  it('replaces every occurrence with replace_all and lists their lines', async () => {
    const file = await put('a.txt', 'foo()\nbar()\nfoo()\nfoo()\n');
    const out = await edit({
      path: 'a.txt',
      old_text: 'foo()',
      new_text: 'baz()',
      replace_all: true,
    });
    expect(out.isError).toBe(false);
    expect(await text(file)).toBe('baz()\nbar()\nbaz()\nbaz()\n');
    expect(out.content).toContain('replacements=3');
    expect(out.content).toContain('match_lines=[1, 3, 4]');
  });

  it('edits a 10,000-line file', async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i + 1} = ${i * 3};`);
    const file = await put('big.txt', `${lines.join('\n')}\n`);
    const out = await edit({
      path: 'big.txt',
      old_text: 'line 9500 = 28497;',
      new_text: 'line 9500 = 0;',
    });
    expect(out.isError).toBe(false);
    expect(out.content).toContain('start_line=9500');
    const after = (await text(file)).split('\n');
    expect(after[9499]).toBe('line 9500 = 0;');
    expect(after).toHaveLength(10_001);
  });

  it('leaves no temp file behind', async () => {
    await put('a.txt', 'x\n');
    await edit({ path: 'a.txt', old_text: 'x', new_text: 'y' });
    expect(await readdir(root)).toEqual(['a.txt']);
  });
});

describe('edit keeps the file format', () => {
  it('keeps CRLF line endings and converts new_text to them', async () => {
    const file = await put('win.txt', 'one\r\ntwo\r\nthree\r\n');
    const out = await edit({
      path: 'win.txt',
      old_text: 'two\nthree',
      new_text: 'TWO\nmiddle\nTHREE',
    });
    expect(out.isError).toBe(false);
    expect(await text(file)).toBe('one\r\nTWO\r\nmiddle\r\nTHREE\r\n');
  });

  it('keeps a BOM together with CRLF', async () => {
    const file = await put('bom.txt', Buffer.from('\uFEFFa\r\nb\r\n', 'utf8'));
    const out = await edit({ path: 'bom.txt', old_text: 'b', new_text: 'c\nd' });
    expect(out.isError).toBe(false);
    const bytes = await readFile(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe('a\r\nc\r\nd\r\n');
  });

  it('keeps a missing trailing newline on an edit near EOF', async () => {
    const file = await put('a.txt', 'first\nlast');
    const out = await edit({ path: 'a.txt', old_text: 'last', new_text: 'final\n' });
    expect(out.isError).toBe(false);
    expect(await text(file)).toBe('first\nfinal');
  });

  it('keeps the file mode', async () => {
    const file = await put('run.sh', '#!/bin/sh\necho hi\n');
    await chmod(file, 0o750);
    const out = await edit({ path: 'run.sh', old_text: 'echo hi', new_text: 'echo bye' });
    expect(out.isError).toBe(false);
    expect((await stat(file)).mode & 0o777).toBe(0o750);
    expect(await text(file)).toBe('#!/bin/sh\necho bye\n');
  });

  it('edits the target of an in-root symlink and keeps the link', async () => {
    const target = await put('src/real.txt', 'a\n');
    await symlink(target, path.join(root, 'link.txt'));
    const out = await edit({ path: 'link.txt', old_text: 'a', new_text: 'b' });
    expect(out.isError).toBe(false);
    expect(await text(target)).toBe('b\n');
    expect((await readdir(root)).sort()).toEqual(['link.txt', 'src']);
  });
});

describe('edit refuses without writing', () => {
  async function unchanged(file: string, run: () => Promise<ToolOutput>): Promise<ToolOutput> {
    const before = await readFile(file);
    const mtime = (await stat(file)).mtimeMs;
    const out = await run();
    expect(out.isError).toBe(true);
    expect(await readFile(file)).toEqual(before);
    expect((await stat(file)).mtimeMs).toBe(mtime);
    return out;
  }

  it('fails on 0 matches with the closest region, visible whitespace and the prefix reminder', async () => {
    const file = await put('a.ts', 'function f() {\n\treturn 1;\n}\n');
    const out = await unchanged(file, () =>
      edit({ path: 'a.ts', old_text: 'function f() {\n    return 2;', new_text: 'x' }),
    );
    expect(out.failure?.code).toBe('edit_old_text_not_found');
    expect(out.content).toContain('could not find old_text in a.ts');
    expect(out.content).toContain('Closest region: line 1');
    expect(out.content).toContain('old_text: ····return·2;');
    expect(out.content).toContain('file:     →return·1;');
    expect(out.content).toContain('"N: "');
  });

  it('fails on 2 matches naming their lines', async () => {
    const file = await put('a.txt', 'x = 1\ny = 2\nx = 1\n');
    const out = await unchanged(file, () =>
      edit({ path: 'a.txt', old_text: 'x = 1', new_text: 'x = 3' }),
    );
    expect(out.failure?.code).toBe('edit_multiple_matches');
    expect(out.content).toContain('found multiple matches');
    expect(out.content).toContain('[1, 3]');
    expect(out.content).toContain('replace_all');
  });

  it('fails when old_text equals new_text', async () => {
    const file = await put('a.txt', 'same\n');
    const out = await unchanged(file, () =>
      edit({ path: 'a.txt', old_text: 'same', new_text: 'same' }),
    );
    expect(out.failure?.code).toBe('same_text');
    expect(out.failure?.kind).toBe('invalid_arguments');
    expect(out.content).toContain('to be different');
  });

  it('fails on an empty old_text and points to write', async () => {
    const file = await put('a.txt', 'x\n');
    const out = await unchanged(file, () => edit({ path: 'a.txt', old_text: '', new_text: 'y' }));
    expect(out.content).toContain('non-empty');
    expect(out.failure).toMatchObject({ kind: 'invalid_arguments', suggestedTool: 'write' });
    expect(out.failure?.advice).toContain('use write');
  });

  it('fails when a fuzzy match would leave the file as it is', async () => {
    const file = await put('a.txt', 'x  =  1;\n');
    const out = await unchanged(file, () =>
      edit({ path: 'a.txt', old_text: 'x = 1;', new_text: 'x  =  1;' }),
    );
    expect(out.content).toContain('would not change');
  });

  it('fails on a non-UTF-8 or UTF-16 file', async () => {
    const latin1 = await put('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const out = await unchanged(latin1, () =>
      edit({ path: 'latin1.txt', old_text: 'caf', new_text: 'x' }),
    );
    expect(out.failure?.code).toBe('not_utf8');
    const utf16 = await put('u16.txt', Buffer.from([0xff, 0xfe, 0x61, 0x00]));
    const out16 = await unchanged(utf16, () =>
      edit({ path: 'u16.txt', old_text: 'a', new_text: 'b' }),
    );
    expect(out16.content).toContain('UTF-16LE');
  });

  it('fails on a missing file (use write), a directory and a file over 20 MB', async () => {
    const missing = await edit({ path: 'nope.txt', old_text: 'a', new_text: 'b' });
    expect(missing.failure?.code).toBe('not_found');
    expect(missing.failure?.kind).toBe('not_found');
    expect(missing.failure?.advice).toContain('create it with write');
    await mkdir(path.join(root, 'dir'));
    const dir = await edit({ path: 'dir', old_text: 'a', new_text: 'b' });
    expect(dir.failure?.code).toBe('is_directory');
    const big = await put('big.bin', 'a');
    await truncate(big, 21 * 1024 * 1024);
    const large = await edit({ path: 'big.bin', old_text: 'a', new_text: 'b' });
    expect(large.failure?.code).toBe('file_too_large');
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO without opening it', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const out = await edit({ path: 'pipe', old_text: 'a', new_text: 'b' });
    expect(out.failure?.code).toBe('not_regular_file');
  });
});

describe('edit confinement', () => {
  it('refuses a path outside the workdir', async () => {
    const out = await edit({ path: '../s/secret', old_text: 'TOP', new_text: 'X' });
    expect(out.isError).toBe(true);
    expect(out.failure?.code).toBe('path_outside_root');
    expect(await text(path.join(outside, 'secret'))).toBe('TOP-SECRET-CONTENT\n');
  });

  it('refuses a symlink that escapes the workdir', async () => {
    await symlink(path.join(outside, 'secret'), path.join(root, 'notes.txt'));
    const out = await edit({ path: 'notes.txt', old_text: 'TOP', new_text: 'X' });
    expect(out.failure?.code).toBe('path_outside_root');
    expect(await text(path.join(outside, 'secret'))).toBe('TOP-SECRET-CONTENT\n');
  });

  it('refuses files inside .git', async () => {
    const config = await put('.git/config', '[core]\n');
    const out = await edit({ path: '.git/config', old_text: '[core]', new_text: '[x]' });
    expect(out.failure?.code).toBe('protected_path');
    expect(await text(config)).toBe('[core]\n');
  });

  it('refuses protected paths such as the state dir', async () => {
    const state = await put('.tiny-claw/approvals/a.json', '{}\n');
    const out = await edit(
      { path: '.tiny-claw/approvals/a.json', old_text: '{}', new_text: '[]' },
      { protectedPaths: ['.tiny-claw'] },
    );
    expect(out.failure?.code).toBe('protected_path');
    expect(await text(state)).toBe('{}\n');
  });
});

describe('edit with a read ledger', () => {
  it('refuses a file not read in this run', async () => {
    const ledger = new ReadLedger();
    const file = await put('a.txt', 'x\n');
    const out = await edit(
      { path: 'a.txt', old_text: 'x', new_text: 'y' },
      { readLedger: ledger },
      'run-1',
    );
    expect(out.failure?.code).toBe('file_not_read');
    expect(out.content).toContain('read');
    expect(await text(file)).toBe('x\n');
  });

  it('refuses a file touched after it was read (a newer mtime is enough)', async () => {
    const ledger = new ReadLedger();
    const file = await put('a.txt', 'x\n');
    await recordRead(ledger, 'run-1', file);
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);
    const out = await edit(
      { path: 'a.txt', old_text: 'x', new_text: 'y' },
      { readLedger: ledger },
      'run-1',
    );
    expect(out.failure?.code).toBe('file_modified');
    expect(out.content).toContain('modified since it was read');
    expect(out.failure).toMatchObject({ kind: 'stale_read', suggestedTool: 'read' });
    expect(await text(file)).toBe('x\n');
  });

  it('refuses a same-size rewrite that kept the mtime (the content hash differs)', async () => {
    const ledger = new ReadLedger();
    const file = await put('a.txt', 'abc\n');
    await recordRead(ledger, 'run-1', file);
    const { atime, mtime } = await stat(file);
    await writeFile(file, 'abd\n');
    await utimes(file, atime, mtime);
    const out = await edit(
      { path: 'a.txt', old_text: 'ab', new_text: 'zz' },
      { readLedger: ledger },
      'run-1',
    );
    expect(out.failure?.code).toBe('file_modified');
    expect(await text(file)).toBe('abd\n');
  });

  it('allows consecutive edits after one read (the edit records the new state)', async () => {
    const ledger = new ReadLedger();
    const file = await put('a.txt', 'a\nb\n');
    await recordRead(ledger, 'run-1', file);
    const options = { readLedger: ledger };
    expect(
      (await edit({ path: 'a.txt', old_text: 'a', new_text: 'A' }, options, 'run-1')).isError,
    ).toBe(false);
    expect(
      (await edit({ path: 'a.txt', old_text: 'b', new_text: 'B' }, options, 'run-1')).isError,
    ).toBe(false);
    expect(await text(file)).toBe('A\nB\n');
  });

  it('does not enforce the ledger for calls without a run id', async () => {
    const file = await put('a.txt', 'x\n');
    const out = await edit(
      { path: 'a.txt', old_text: 'x', new_text: 'y' },
      { readLedger: new ReadLedger() },
    );
    expect(out.isError).toBe(false);
    expect(await text(file)).toBe('y\n');
  });
});

describe('concurrent edits of one file', () => {
  const lines = Array.from({ length: 50 }, (_, i) => `row ${i}`);

  it('serialises them so both are applied', async () => {
    const ledger = new ReadLedger();
    const file = await put('a.txt', `${lines.join('\n')}\n`);
    await recordRead(ledger, 'run-1', file);
    const tool = createEditTool({ readLedger: ledger });
    const results = await Promise.all(
      [3, 17, 42].map((n) =>
        tool.run(
          tool.parse({ path: 'a.txt', old_text: `row ${n}\n`, new_text: `ROW ${n}\n` }),
          ctx('run-1'),
        ),
      ),
    );
    expect(results.map((r) => r.isError)).toEqual([false, false, false]);
    const after = await text(file);
    expect(after).toContain('ROW 3\n');
    expect(after).toContain('ROW 17\n');
    expect(after).toContain('ROW 42\n');
    expect(after.split('\n')).toHaveLength(51);
  });

  it('serialises them without a ledger too', async () => {
    const file = await put('a.txt', `${lines.join('\n')}\n`);
    const a = createEditTool();
    const b = createEditTool();
    await Promise.all([
      a.run(a.parse({ path: 'a.txt', old_text: 'row 1\n', new_text: 'ONE\n' }), ctx()),
      b.run(b.parse({ path: 'a.txt', old_text: 'row 2\n', new_text: 'TWO\n' }), ctx()),
    ]);
    expect(await text(file)).toMatch(/^row 0\nONE\nTWO\nrow 3\n/);
  });

  it('gives a clean conflict to another run that read the old version', async () => {
    const ledger = new ReadLedger();
    const file = await put('a.txt', `${lines.join('\n')}\n`);
    await recordRead(ledger, 'run-1', file);
    await recordRead(ledger, 'run-2', file);
    const tool = createEditTool({ readLedger: ledger });
    const results = await Promise.all([
      tool.run(
        tool.parse({ path: 'a.txt', old_text: 'row 5\n', new_text: 'FIVE\n' }),
        ctx('run-1'),
      ),
      tool.run(tool.parse({ path: 'a.txt', old_text: 'row 6\n', new_text: 'SIX\n' }), ctx('run-2')),
    ]);
    // Whichever takes the lock first wins; the other sees a file changed since its read.
    const winners = results.filter((r) => !r.isError);
    const losers = results.filter((r) => r.isError);
    expect(winners).toHaveLength(1);
    expect(losers.map((r) => r.failure?.code)).toEqual(['file_modified']);
    const after = await text(file);
    expect(
      [after.includes('FIVE\nrow 6\n'), after.includes('row 5\nSIX\n')].filter(Boolean),
    ).toHaveLength(1);
  });
});
