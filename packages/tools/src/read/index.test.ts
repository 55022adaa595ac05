import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, open, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext, ToolOutput } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReadTool, READ_LIMITS } from './index.js';

const ALL_TOOLS = ['bash', 'edit', 'read', 'write'];

let base: string;
let root: string;
let outside: string;
const tool = createReadTool();

function ctx(): ToolContext {
  return {
    workdir: root,
    signal: new AbortController().signal,
    toolCallId: 'call-1',
    visibleTools: ALL_TOOLS,
  };
}

async function read(args: Record<string, unknown>): Promise<ToolOutput> {
  return tool.run(tool.parse(args), ctx());
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-read-')));
  root = path.join(base, 'w');
  outside = path.join(base, 's');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret'), 'TOP-SECRET-CONTENT\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function lines(count: number, make: (n: number) => string = (n) => `line ${n}`): string {
  return `${Array.from({ length: count }, (_, i) => make(i + 1)).join('\n')}\n`;
}

const hasMkfifo = (() => {
  try {
    execFileSync('mkfifo', ['--version'], { stdio: 'ignore' });
    return process.platform !== 'win32';
  } catch {
    return false;
  }
})();

describe('read tool definition', () => {
  it('is parallel-safe, read-only (an explorer may have it) and exposes path/offset/limit', () => {
    expect(tool.name).toBe('read');
    expect(tool.parallelSafe).toBe(true);
    expect(tool.readOnly).toBe(true);
    expect(Object.keys(tool.parameters.properties as object)).toEqual(['path', 'offset', 'limit']);
  });

  it('rejects offset 0 and non-integer limits at parse time', () => {
    expect(() => tool.parse({ path: 'a', offset: 0 })).toThrow(/offset/);
    expect(() => tool.parse({ path: 'a', limit: 1.5 })).toThrow(/limit/);
    expect(tool.parse({ path: 'a' })).toEqual({ path: 'a', offset: 1, limit: 2000 });
  });
});

describe('read confinement', () => {
  it('refuses ../x', async () => {
    const out = await read({ path: '../s/secret' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('must stay under the workdir');
    expect(out.content).not.toContain('TOP-SECRET');
    expect(out.failure?.code).toBe('path_outside_root');
  });

  it('refuses an absolute path outside the workdir', async () => {
    const out = await read({ path: path.join(outside, 'secret') });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('must stay under the configured root');
    expect(out.content).not.toContain('TOP-SECRET');
  });

  it('accepts an absolute path inside the workdir', async () => {
    await writeFile(path.join(root, 'a.txt'), 'alpha\n');
    const out = await read({ path: path.join(root, 'a.txt') });
    expect(out).toMatchObject({ isError: false, content: '1: alpha' });
  });

  it('refuses a symlink from inside to outside and never shows the outside content', async () => {
    await symlink(path.join(outside, 'secret'), path.join(root, 'notes.txt'));
    await symlink(outside, path.join(root, 'dir-link'));
    for (const input of ['notes.txt', 'dir-link/secret']) {
      const out = await read({ path: input });
      expect(out.isError).toBe(true);
      expect(out.failure?.code).toBe('path_outside_root');
      expect(out.content).not.toContain('TOP-SECRET');
    }
  });

  it('follows a symlink from inside to inside', async () => {
    await mkdir(path.join(root, 'src'));
    await writeFile(path.join(root, 'src', 'real.txt'), 'inside\n');
    await symlink(path.join(root, 'src', 'real.txt'), path.join(root, 'alias.txt'));
    const out = await read({ path: 'alias.txt' });
    expect(out).toMatchObject({ isError: false, content: '1: inside' });
    expect(out.metadata?.path).toBe('src/real.txt');
  });

  it('rejects a NUL in the path with an invalid_path error', async () => {
    const out = await read({ path: 'a\u0000b' });
    expect(out).toMatchObject({ isError: true, failure: { code: 'invalid_path' } });
  });
});

describe('read refusals', () => {
  it('reports a directory clearly, without naming tools the model may not have', async () => {
    await mkdir(path.join(root, 'src'));
    const out = await read({ path: 'src' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('is a directory');
    expect(out.failure?.code).toBe('is_directory');
    expect(out.content).not.toMatch(/bash/);
  });

  it('reports a missing file as "path does not exist"', async () => {
    const out = await read({ path: 'nope/missing.txt' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('path does not exist: nope/missing.txt');
    expect(out.failure?.code).toBe('not_found');
  });

  it('reports a path under a regular file as missing', async () => {
    await writeFile(path.join(root, 'file.txt'), 'x');
    const out = await read({ path: 'file.txt/child' });
    expect(out.content).toContain('path does not exist: file.txt/child');
  });

  it.skipIf(!hasMkfifo)('refuses a FIFO as not a regular file without hanging', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const started = Date.now();
    const out = await Promise.race([
      read({ path: 'pipe' }),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('read hung on FIFO')), 2000),
      ),
    ]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(out.isError).toBe(true);
    expect(out.content).toContain('not a regular file');
    expect(out.content).toContain('FIFO');
  });

  it('refuses a file over 20 MB without reading it (sparse file)', async () => {
    const big = path.join(root, 'big.bin');
    const handle = await open(big, 'w');
    await handle.truncate(READ_LIMITS.maxFileBytes + 1);
    await handle.close();
    const out = await read({ path: 'big.bin' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('20 MB');
    expect(out.failure?.code).toBe('file_too_large');
  });

  it('refuses a binary file (NUL byte)', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    await writeFile(path.join(root, 'img.png'), png);
    const out = await read({ path: 'img.png' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('binary file');
  });

  it('refuses a file with more than 30% control bytes', async () => {
    const bytes = Buffer.alloc(1000, 0x41);
    for (let i = 0; i < 400; i += 1) bytes[i * 2] = 0x01;
    await writeFile(path.join(root, 'ctl.dat'), bytes);
    const out = await read({ path: 'ctl.dat' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('binary file');
  });

  it('decodes a UTF-16 file with a BOM as text (BOM checked before the NUL sniff)', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\nwörld\n', 'utf16le')]);
    await writeFile(path.join(root, 'u16le.txt'), le);
    const out = await read({ path: 'u16le.txt' });
    expect(out.isError).toBe(false);
    expect(out.content).toContain('1: héllo\n2: wörld');
    expect(out.content).toContain('decoded from UTF-16LE');
    const be = Buffer.from([0xfe, 0xff, 0x00, 0x68, 0x00, 0x69, 0x00, 0x0a]);
    await writeFile(path.join(root, 'u16be.txt'), be);
    expect((await read({ path: 'u16be.txt' })).content).toContain('1: hi');
  });

  it('refuses a UTF-32 file with a note on converting it', async () => {
    await writeFile(
      path.join(root, 'u32.txt'),
      Buffer.from([0xff, 0xfe, 0x00, 0x00, 0x68, 0, 0, 0]),
    );
    const out = await read({ path: 'u32.txt' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('UTF-32LE');
    expect(out.content).toContain('iconv');
  });
});

describe('read output', () => {
  it('numbers lines with their real line number and honours offset/limit', async () => {
    await writeFile(path.join(root, 'ten.txt'), lines(10));
    const all = await read({ path: 'ten.txt' });
    expect(all.isError).toBe(false);
    expect(all.content).toBe(
      Array.from({ length: 10 }, (_, i) => `${i + 1}: line ${i + 1}`).join('\n'),
    );

    const window = await read({ path: 'ten.txt', offset: 4, limit: 3 });
    expect(window.content).toBe(
      '4: line 4\n5: line 5\n6: line 6\n\n[showing lines 4-6 of 10; continue with offset=7]',
    );
    expect(window.metadata).toMatchObject({
      startLine: 4,
      endLine: 6,
      totalLines: 10,
      nextOffset: 7,
    });
    // The paging note is declared as the result's closing note, so a compactor can drop it whole.
    const footer = window.footerChars as number;
    expect(window.content.slice(-footer)).toBe(
      '\n\n[showing lines 4-6 of 10; continue with offset=7]',
    );
    expect(window.metadata).not.toHaveProperty('footer_chars');
    expect(all.footerChars).toBeUndefined();

    const rest = await read({ path: 'ten.txt', offset: 9 });
    expect(rest.content).toBe('9: line 9\n10: line 10\n\n[showing lines 9-10 of 10; end of file]');
  });

  it('counts a last line without a trailing newline', async () => {
    await writeFile(path.join(root, 'nonl.txt'), 'a\nb');
    expect((await read({ path: 'nonl.txt' })).content).toBe('1: a\n2: b');
    const beyond = await read({ path: 'nonl.txt', offset: 3 });
    expect(beyond.isError).toBe(false);
    expect(beyond.content).toContain('has 2 lines');
  });

  it('answers an offset beyond EOF with a non-error naming the line count', async () => {
    await writeFile(path.join(root, 'ten.txt'), lines(10));
    const out = await read({ path: 'ten.txt', offset: 200 });
    expect(out.isError).toBe(false);
    expect(out.content).toContain('offset 200 is beyond the end');
    expect(out.content).toContain('10 lines');
  });

  it('reports an empty file', async () => {
    await writeFile(path.join(root, 'empty.txt'), '');
    const out = await read({ path: 'empty.txt' });
    expect(out.isError).toBe(false);
    expect(out.content).toContain('0 lines');
  });

  it('cuts a line longer than 2000 chars with a marker', async () => {
    await writeFile(path.join(root, 'min.js'), `${'x'.repeat(12345)}\nshort\n`);
    const out = await read({ path: 'min.js' });
    const [first, second] = out.content.split('\n');
    expect(first).toBe(`1: ${'x'.repeat(2000)} … [line truncated: 12345 chars total]`);
    expect(second).toBe('2: short');
  });

  it('caps output at 50 KiB and says where to continue', async () => {
    // 5000 lines of ~100 chars = ~500 KiB.
    await writeFile(
      path.join(root, 'big.txt'),
      lines(5000, (n) => `${n}:${'y'.repeat(95)}`),
    );
    const out = await read({ path: 'big.txt' });
    expect(out.isError).toBe(false);
    expect(Buffer.byteLength(out.content)).toBeLessThanOrEqual(READ_LIMITS.maxOutputBytes);
    const end = out.metadata?.endLine as number;
    expect(end).toBeGreaterThan(100);
    expect(end).toBeLessThan(5000);
    expect(out.content).toMatch(
      new RegExp(
        `\\[showing lines 1-${end} of 5000; output capped at 50 KiB; continue with offset=${end + 1}\\]$`,
      ),
    );
    const next = await read({ path: 'big.txt', offset: end + 1 });
    expect(next.content.startsWith(`${end + 1}: ${end + 1}:`)).toBe(true);
  });

  it('caps a file of maximal long lines at 50 KiB too', async () => {
    await writeFile(
      path.join(root, 'wide.txt'),
      lines(100, () => 'z'.repeat(5000)),
    );
    const out = await read({ path: 'wide.txt' });
    expect(Buffer.byteLength(out.content)).toBeLessThanOrEqual(READ_LIMITS.maxOutputBytes);
    expect(out.content).toContain('continue with offset=');
  });

  it('strips a UTF-8 BOM', async () => {
    await writeFile(path.join(root, 'bom.txt'), Buffer.from('\uFEFFfirst\nsecond\n', 'utf8'));
    const out = await read({ path: 'bom.txt' });
    expect(out.content).toBe('1: first\n2: second');
  });

  it('numbers CRLF lines correctly without \\r in the output', async () => {
    await writeFile(path.join(root, 'crlf.txt'), 'one\r\ntwo\r\nthree\r\n');
    const out = await read({ path: 'crlf.txt', offset: 2 });
    expect(out.content).toBe('2: two\n3: three\n\n[showing lines 2-3 of 3; end of file]');
    expect(out.content).not.toContain('\r');
  });

  it('decodes invalid UTF-8 with replacement characters and says so', async () => {
    await writeFile(path.join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const out = await read({ path: 'latin1.txt' });
    expect(out.isError).toBe(false);
    expect(out.content).toContain('1: caf\uFFFD');
    expect(out.content).toContain('not valid UTF-8');
  });

  it('reads a 10 MB file quickly', async () => {
    await writeFile(
      path.join(root, 'ten-mb.txt'),
      lines(100_000, (n) => `${n} ${'q'.repeat(100)}`),
    );
    const started = performance.now();
    const out = await read({ path: 'ten-mb.txt', offset: 99_990 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(out.content.split('\n')[0]).toBe(`99990: 99990 ${'q'.repeat(100)}`);
    expect(out.content).toContain('[showing lines 99990-100000 of 100000; end of file]');
  });
});

describe('read and the read ledger', () => {
  it('records what it read for the run, so a later edit can require a fresh read', async () => {
    const { ReadLedger } = await import('../file-state/index.js');
    const { createEditTool } = await import('../edit/index.js');
    const ledger = new ReadLedger();
    await writeFile(path.join(root, 'a.txt'), 'alpha\nbeta\n');
    const withRun = { ...ctx(), runId: 'run-1' };
    const reader = createReadTool({ readLedger: ledger });
    const editor = createEditTool({ readLedger: ledger });
    const edit = (runId: string) =>
      editor.run(editor.parse({ path: 'a.txt', old_text: 'beta', new_text: 'gamma' }), {
        ...withRun,
        runId,
      });
    expect((await edit('run-1')).isError).toBe(true);
    await reader.run(reader.parse({ path: 'a.txt' }), withRun);
    expect((await edit('run-1')).isError).toBe(false);
    expect((await edit('run-2')).isError).toBe(true);
  });
});
