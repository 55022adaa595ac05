/*
 * Adversarial paths and files against read, write and edit together: control characters and
 * over-long names, Unicode look-alikes, /proc and /dev magic links, device nodes, hard links to
 * outside files, a directory given as a file, and a concurrent process swapping a directory for a
 * symlink mid-call. Each test is named after the rule it proves; the single-tool cases (escapes,
 * symlinks, .git, protected paths, FIFOs, size limits, read-before-write, locking, atomicity,
 * bash robustness) live beside each tool.
 *
 * Safety: this suite may run as root. No write or edit is ever pointed at a real system file
 * (/etc, /dev); those are only read, or checked with resolveInWorkdir. Escapes that a write
 * could act on target the per-test outside dir instead.
 */

import { spawn } from 'node:child_process';
import {
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
import type { Tool, ToolContext, ToolOutput } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createEditTool,
  createReadTool,
  createWriteTool,
  PATH_LIMITS,
  resolveInWorkdir,
} from './index.js';

const ALL_TOOLS = ['bash', 'edit', 'read', 'write'];

let base: string;
let root: string;
let outside: string;
const SECRET = 'TOP-SECRET\n';

const readTool = createReadTool();
const writeTool = createWriteTool();
const editTool = createEditTool();

function ctx(): ToolContext {
  return {
    workdir: root,
    signal: new AbortController().signal,
    toolCallId: 'call-1',
    visibleTools: ALL_TOOLS,
    runId: 'run-1',
  };
}

async function call<A>(tool: Tool<A>, args: Record<string, unknown>): Promise<ToolOutput> {
  return tool.run(tool.parse(args), ctx());
}

const read = (p: string) => call(readTool, { path: p });
const write = (p: string, content = 'pwned') => call(writeTool, { path: p, content });
const edit = (p: string, oldText = 'TOP', newText = 'PWNED') =>
  call(editTool, { path: p, old_text: oldText, new_text: newText });

function expectRefused(out: ToolOutput, errorType: string | readonly string[], label: string) {
  expect(out.isError, `${label}: ${out.content}`).toBe(true);
  const types = typeof errorType === 'string' ? [errorType] : errorType;
  expect(types, `${label}: ${out.content}`).toContain(out.failure?.code);
}

/** Every entry below `dir`, relative, sorted (lstat only: links are listed, not followed). */
async function tree(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const rel = prefix ? `${prefix}/${name}` : name;
    out.push(rel);
    const stats = await lstat(path.join(dir, name));
    if (stats.isDirectory()) out.push(...(await tree(path.join(dir, name), rel)));
  }
  return out;
}

async function expectOutsideUntouched(): Promise<void> {
  expect(await readdir(outside)).toEqual(['secret']);
  expect(await readFile(path.join(outside, 'secret'), 'utf8')).toBe(SECRET);
}

/** Resolve `promise` or fail the test after `ms` (a hang is the failure mode being tested). */
async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not return within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-adversarial-')));
  root = path.join(base, 'w');
  outside = path.join(base, 's');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret'), SECRET);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('read, write and edit refuse adversarial paths alike', () => {
  it('a NUL in the path is a validation error from every tool, never a crash or ERR_INVALID_ARG_VALUE', async () => {
    const inputs = ['a\u0000.txt', `${root}/a\u0000/../../s/secret`, '\u0000'];
    for (const input of inputs) {
      const label = JSON.stringify(input);
      const guard = await resolveInWorkdir(root, input, { access: 'write' });
      expect(guard, label).toMatchObject({ ok: false, errorType: 'invalid_path' });
      for (const [name, run] of [
        ['read', () => read(input)],
        ['write', () => write(input)],
        ['edit', () => edit(input)],
      ] as const) {
        // `run()` must resolve (a throw fails the test here): the error is an observation.
        const out = await run();
        expectRefused(out, 'invalid_path', `${name} ${label}`);
        expect(out.content).toContain('NUL');
        expect(out.content).not.toContain('ERR_INVALID_ARG_VALUE');
        expect(out.content).not.toMatch(/null bytes/i);
      }
    }
    expect(await readdir(root)).toEqual([]);
    await expectOutsideUntouched();
  });

  it('refuses a newline, a tab, a 256-byte component and a 5000-char path before any fs call', async () => {
    const longAbsolute = `${root}/${'c/'.repeat(2500)}`.slice(0, 4999);
    const cases: Array<[string, string, RegExp]> = [
      // write names the trailing `/` first (its own check runs before the guard): still refused.
      ['newline', 'a.txt\nrm -rf /', /newline|ends with a path separator/],
      ['newline, no trailing slash', 'a.txt\nrm -rf x', /newline/],
      ['tab', 'a\tb.txt', /tab/],
      ['carriage return', 'a.txt\r', /carriage return/],
      ['256-byte component', 'a'.repeat(256), /255-byte limit/],
      ['256-byte component in a subdir', `dir/${'b'.repeat(256)}`, /255-byte limit/],
      ['5000-char path', `${'a/'.repeat(2499)}ab`, /4096-character limit/],
      ['5000-char absolute path', `${longAbsolute}x`, /4096/],
    ];
    expect(cases[4]?.[1]).toHaveLength(256);
    expect(cases[6]?.[1]).toHaveLength(5000);
    for (const [name, input, reason] of cases) {
      for (const [tool, run] of [
        ['read', () => read(input)],
        ['write', () => write(input)],
        ['edit', () => edit(input)],
      ] as const) {
        const out = await run();
        expectRefused(out, 'invalid_path', `${tool} ${name}`);
        expect(out.content, `${tool} ${name}`).toMatch(reason);
      }
    }
    // The limits are the documented ones, and exactly 255 bytes is still fine.
    expect(PATH_LIMITS).toMatchObject({ maxPathChars: 4096, maxComponentBytes: 255 });
    // Temp names of write/edit shrink for long names, so a 255-byte name is writable too.
    const longest = 'a'.repeat(255);
    expect(await resolveInWorkdir(root, longest, { access: 'write' })).toMatchObject({ ok: true });
    await writeFile(path.join(root, longest), 'ok\n');
    expect(await read(longest)).toMatchObject({ isError: false, content: '1: ok' });
    expect(await readdir(root)).toEqual([longest]);
    await expectOutsideUntouched();
  });

  it('Unicode look-alikes, NBSP, combining marks and NFC/NFD names are taken literally and never escape', async () => {
    // Spellings that look like (or normalise to) `..`, `/` or `etc`, aimed at the outside dir.
    const lookAlikes = [
      '\uff0e\uff0e/s/secret', // FULLWIDTH FULL STOP ×2
      '..\u00a0/s/secret', // trailing NBSP on `..`
      '.\u0307./s/secret', // combining dot above between the dots
      '\u2025/s/secret', // TWO DOT LEADER
      '..\uff0fs\uff0fsecret', // FULLWIDTH SOLIDUS instead of `/`
      '..\u2215s\u2215secret', // DIVISION SLASH instead of `/`
      '\uff45\uff54\uff43/passwd', // ｅｔｃ/passwd
      '\u0065\u0301tc/passwd', // é (NFD) tc
    ];
    for (const input of lookAlikes) {
      const label = JSON.stringify(input);
      const guard = await resolveInWorkdir(root, input, { access: 'write' });
      // Literal: the path is the input joined to the workdir, byte for byte (no NFKC, no NFC).
      expect(guard, label).toEqual({ ok: true, path: path.join(root, input), relative: input });
      const out = await write(input, `literal ${label}`);
      expect(out.isError, `${label}: ${out.content}`).toBe(false);
      expect(await readFile(path.join(root, input), 'utf8')).toBe(`literal ${label}`);
      const back = await read(input);
      expect(back.content, label).toBe(`1: literal ${label}`);
    }
    // The absolute look-alike is outside the workdir, so it is denied, not mapped to /etc.
    expectRefused(await read('/\uff45\uff54\uff43/passwd'), 'path_outside_root', 'read /ｅｔｃ');
    expectRefused(await read('/etc\u00a0/passwd'), 'path_outside_root', 'read /etc<NBSP>');

    // NFC and NFD spellings of one name are two different files on Linux (byte-literal names).
    const nfc = 'caf\u00e9.txt';
    const nfd = 'cafe\u0301.txt';
    expect(nfc.normalize('NFD')).toBe(nfd);
    expect((await write(nfc, 'nfc')).isError).toBe(false);
    const guardNfd = await resolveInWorkdir(root, nfd, { access: 'read' });
    expect(guardNfd).toEqual({ ok: true, path: path.join(root, nfd), relative: nfd });
    if (process.platform === 'linux') {
      expectRefused(await read(nfd), 'not_found', 'read NFD after writing NFC');
      expect((await write(nfd, 'nfd')).isError).toBe(false);
      expect(await readFile(path.join(root, nfc), 'utf8')).toBe('nfc');
      expect(await readFile(path.join(root, nfd), 'utf8')).toBe('nfd');
    }

    await expectOutsideUntouched();
    // Everything written is under the workdir: its entries are exactly the literal first segments.
    const expected = new Set([
      ...lookAlikes.map((p) => p.split('/')[0] ?? ''),
      nfc,
      ...(process.platform === 'linux' ? [nfd] : []),
    ]);
    expect(new Set(await readdir(root))).toEqual(expected);
    expect(await readdir(base)).toEqual(['s', 'w'].sort());
  });

  it('refuses /proc/self/root, /proc/self/cwd/.. and /dev/stdin, directly and through symlinks', async () => {
    const readOnly = ['/proc/self/root/etc/passwd', '/proc/self/cwd/../s/secret', '/dev/stdin'];
    for (const input of readOnly) {
      for (const access of ['read', 'write'] as const) {
        const guard = await resolveInWorkdir(root, input, { access });
        expect(guard, `${access} ${input}`).toMatchObject({
          ok: false,
          errorType: 'path_outside_root',
        });
      }
      const out = await within(5_000, read(input), `read ${input}`);
      expectRefused(out, 'path_outside_root', `read ${input}`);
      expect(out.content).not.toContain('root:');
    }

    // Writes and edits are aimed at the outside dir through the same magic links.
    const viaRoot = `/proc/self/root${outside}`;
    expectRefused(await read(`${viaRoot}/secret`), 'path_outside_root', 'read via /proc root');
    expectRefused(await write(`${viaRoot}/pwned.txt`), 'path_outside_root', 'write via /proc');
    expectRefused(await write(`${viaRoot}/secret`), 'path_outside_root', 'overwrite via /proc');
    expectRefused(await edit(`${viaRoot}/secret`), 'path_outside_root', 'edit via /proc');
    expectRefused(
      await write('/proc/self/cwd/../pwned.txt'),
      'path_outside_root',
      'write via /proc cwd',
    );

    // The same magic links planted inside the workdir.
    await symlink('/proc/self/root', path.join(root, 'sysroot'));
    await symlink('/proc/self/cwd', path.join(root, 'cwd'));
    await symlink('/dev/stdin', path.join(root, 'stdin'));
    expectRefused(await read('sysroot/etc/passwd'), 'path_outside_root', 'read link→/proc root');
    expectRefused(
      await write(`sysroot${outside}/pwned.txt`),
      'path_outside_root',
      'write link→/proc root',
    );
    expectRefused(await edit(`sysroot${outside}/secret`), 'path_outside_root', 'edit link→root');
    expectRefused(await read('cwd/package.json'), 'path_outside_root', 'read link→/proc cwd');
    expectRefused(await within(5_000, read('stdin'), 'read stdin'), 'path_outside_root', 'stdin');

    await expectOutsideUntouched();
    expect(await tree(root)).toEqual(['cwd', 'stdin', 'sysroot']);
  });

  it('refuses /dev/zero and /dev/urandom, directly and through an in-workdir symlink, without reading them', async () => {
    for (const device of ['/dev/zero', '/dev/urandom']) {
      for (const access of ['read', 'write'] as const) {
        expect(await resolveInWorkdir(root, device, { access }), device).toMatchObject({
          ok: false,
          errorType: 'path_outside_root',
        });
      }
      const direct = await within(2_000, read(device), `read ${device}`);
      expectRefused(direct, 'path_outside_root', `read ${device}`);
      const linkName = `${path.basename(device)}-link`;
      await symlink(device, path.join(root, linkName));
      // Refused (outside) or "not a regular file": either way quickly, never an endless read.
      const viaLink = await within(2_000, read(linkName), `read ${linkName}`);
      expectRefused(viaLink, ['path_outside_root', 'not_regular_file'], `read ${linkName}`);
      const edited = await within(2_000, edit(linkName, 'a', 'b'), `edit ${linkName}`);
      expectRefused(edited, ['path_outside_root', 'not_regular_file'], `edit ${linkName}`);
      // write is checked through the guard only: a broken guard must never rename over /dev.
      expect(
        await resolveInWorkdir(root, linkName, { access: 'write' }),
        `write ${linkName}`,
      ).toMatchObject({ ok: false, errorType: 'path_outside_root' });
      expect((await lstat(path.join(root, linkName))).isSymbolicLink()).toBe(true);
    }
  });

  it('a character device node inside the workdir is "not a regular file" for read, write and edit', async (context) => {
    const node = path.join(root, 'zero');
    const made = await new Promise<string | undefined>((resolve) => {
      // Same device numbers as /dev/zero (1,5). Needs CAP_MKNOD (root, outside a user namespace).
      const child = spawn('mknod', [node, 'c', '1', '5'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('error', (error) => resolve(`mknod unavailable: ${error.message}`));
      child.on('close', (code) => resolve(code === 0 ? undefined : `mknod failed: ${stderr}`));
    });
    if (made !== undefined) context.skip(`device-node case skipped: ${made.trim()}`);
    expect((await lstat(node)).isCharacterDevice()).toBe(true);

    const outputs = {
      read: await within(2_000, read('zero'), 'read zero'),
      write: await within(2_000, write('zero'), 'write zero'),
      edit: await within(2_000, edit('zero', 'a', 'b'), 'edit zero'),
    };
    for (const [name, out] of Object.entries(outputs)) {
      expectRefused(out, 'not_regular_file', name);
      expect(out.content, name).toContain('not a regular file');
      expect(out.content, name).toContain('character device');
    }
    // The node is still the device: write did not replace it with a regular file.
    expect((await lstat(node)).isCharacterDevice()).toBe(true);
  });

  it('a hard link to an outside file: reads see it (residual), write and edit replace the link and leave the outside file unchanged', async (context) => {
    const secret = path.join(outside, 'secret');
    const hard = path.join(root, 'h');
    const linked = await link(secret, hard).then(
      () => undefined,
      (error: NodeJS.ErrnoException) => error.code ?? String(error),
    );
    if (linked === 'EPERM' || linked === 'EXDEV') {
      context.skip(
        `hard-link case skipped: link(2) refused with ${linked} (fs.protected_hardlinks or another filesystem)`,
      );
    }
    expect(linked).toBeUndefined();
    expect((await stat(secret)).nlink).toBe(2);

    // Observed residual: a hard link has no "real" path elsewhere, so the guard sees an ordinary
    // file inside the workdir and read returns the outside file's content. Only who can create
    // the link (protected_hardlinks, file ownership) stands between a model and this read.
    const seen = await read('h');
    expect(seen).toMatchObject({ isError: false, content: '1: TOP-SECRET' });

    // write: the atomic rename puts a new inode at `h`; the outside inode keeps its content.
    const written = await write('h', 'replaced by write\n');
    expect(written.isError, written.content).toBe(false);
    expect(written.content).toContain('2 hard links');
    expect(await readFile(secret, 'utf8')).toBe(SECRET);
    expect(await readFile(hard, 'utf8')).toBe('replaced by write\n');
    expect((await stat(secret)).nlink).toBe(1);
    expect((await stat(hard)).ino).not.toBe((await stat(secret)).ino);

    // edit: same, through a fresh hard link.
    await rm(hard);
    await link(secret, hard);
    const edited = await edit('h', 'TOP-SECRET', 'edited');
    expect(edited.isError, edited.content).toBe(false);
    expect(await readFile(secret, 'utf8')).toBe(SECRET);
    expect(await readFile(hard, 'utf8')).toBe('edited\n');
    expect((await stat(secret)).nlink).toBe(1);
    await expectOutsideUntouched();
  });

  it('a directory given as a file path is a clear is_directory error for read, write and edit', async () => {
    await mkdir(path.join(root, 'src', 'lib'), { recursive: true });
    await writeFile(path.join(root, 'src', 'lib', 'a.ts'), 'export {};\n');
    await symlink('src', path.join(root, 'src-link'));
    const dirs = ['src', 'src/lib', './src/', '.', root, 'src-link', 'src/lib/..'];
    for (const input of dirs) {
      const r = await read(input);
      expectRefused(r, 'is_directory', `read ${input}`);
      expect(r.content).toContain('is a directory');
      const e = await edit(input, 'a', 'b');
      expectRefused(e, 'is_directory', `edit ${input}`);
      expect(e.content).toMatch(/directory/);
      const w = await write(input, 'x');
      // A trailing separator is refused before the guard (it names a directory), as invalid_path.
      expectRefused(w, ['is_directory', 'invalid_path'], `write ${input}`);
      expect(w.content).toMatch(/directory/);
      expect((await lstat(path.join(root, 'src'))).isDirectory()).toBe(true);
    }
    expect(await tree(root)).toEqual(['src', 'src/lib', 'src/lib/a.ts', 'src-link']);
    expect(await readFile(path.join(root, 'src', 'lib', 'a.ts'), 'utf8')).toBe('export {};\n');
  });
});

/**
 * The swapper runs in its own process so the swap is truly concurrent with the tool (an in-process
 * loop could only interleave at awaits). Each cycle: move the real dir aside, put a symlink to the
 * outside dir in its place, remove it, move the real dir back. If a write created a fresh `dir`
 * while the real one was aside, that fresh one is moved to `dir.strayN` (still in the workdir).
 *
 * Status when written: this test FAILED. The write tool's last check, realpath(parent) === parent,
 * ran before core's writeFileAtomic opened its temp file and renamed it by path, so a swap in
 * that window put the temp file (and, when the rename also saw the symlink, the final file,
 * reported to the model as a success) in the outside dir; edit had no re-check at all.
 * Now: it PASSES on Linux. write and edit do their final write with core's writeFileConfined,
 * which opens every directory from the workdir down with O_DIRECTORY|O_NOFOLLOW through the
 * previous one's descriptor (/proc/self/fd/<fd>/<name>) and creates the temp file and renames
 * through the parent's descriptor, so a swapped-in symlink fails the open instead of being
 * followed. Without /proc/self/fd (non-Linux) core falls back to a path-based write after a
 * realpath re-check, where the race remains (documented there). Kept strict on purpose; do not
 * loosen it to make it pass.
 */
const SWAPPER = `
const fs = require('node:fs');
const [dir, aside, target, stopFile, maxMs] = process.argv.slice(1);
const deadline = Date.now() + Number(maxMs);
let swaps = 0, stray = 0;
const attempt = (fn) => { try { fn(); return true; } catch { return false; } };
// Busy-wait a random 0-200 µs so each state (real dir, symlink) lasts long enough to be seen.
const dwell = () => { const end = process.hrtime.bigint() + BigInt(Math.floor(Math.random() * 200_000)); while (process.hrtime.bigint() < end); };
function restore() {
  attempt(() => { if (fs.lstatSync(dir).isSymbolicLink()) fs.unlinkSync(dir); });
  if (!attempt(() => fs.renameSync(aside, dir)) && fs.existsSync(aside)) {
    attempt(() => fs.renameSync(dir, dir + '.stray' + stray++));
    attempt(() => fs.renameSync(aside, dir));
  }
}
process.stdout.write('ready\\n');
while (Date.now() < deadline && !fs.existsSync(stopFile)) {
  dwell();
  if (!attempt(() => fs.renameSync(dir, aside))) { restore(); continue; }
  if (attempt(() => fs.symlinkSync(target, dir))) swaps++;
  dwell();
  restore();
}
restore();
process.stdout.write('swaps=' + swaps + ' stray=' + stray + '\\n');
`;

/** A running swapper process: `stop()` ends it and returns what it printed. */
interface Swapper {
  stop(): Promise<string>;
}

async function startSwapper(dir: string): Promise<Swapper> {
  const stopFile = path.join(base, 'stop');
  const child = spawn(
    process.execPath,
    ['-e', SWAPPER, dir, path.join(root, 'dir.aside'), outside, stopFile, '20000'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let stdout = '';
  const ready = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('ready')) resolve();
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const stop = async (): Promise<string> => {
    await writeFile(stopFile, '');
    await within(10_000, exited, 'swapper exit').catch(() => child.kill('SIGKILL'));
    return stdout.trim().replace('\n', ' ');
  };
  try {
    await within(5_000, ready, 'swapper start');
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

describe('check-to-use race', () => {
  it('while a concurrent process swaps a workdir dir for a symlink to an outside dir, no write or edit lands outside', async () => {
    const iterations = 300;
    const dir = path.join(root, 'dir');
    await mkdir(dir);
    await writeFile(path.join(dir, 'keep.txt'), 'keep\n');
    const swapper = await startSwapper(dir);
    const outcomes = new Map<string, number>();
    const landedOutside = new Map<string, string>();
    let stdout = '';
    try {
      const deadline = Date.now() + 15_000;
      for (let i = 0; i < iterations && Date.now() < deadline; i += 1) {
        // 0: write of a new file (guard → confined mkdir of missing parents → temp + rename).
        // 1: write over an existing file. 2: edit of that file (`write` → `edited`), which
        // works whenever the previous overwrite did.
        const step = i % 3;
        const op = step === 2 ? 'edit' : 'write';
        const out =
          step === 0
            ? await write(`dir/f${i}.txt`, `write ${i}\n`)
            : step === 1
              ? await write('dir/keep.txt', `write ${i}\n`)
              : await edit('dir/keep.txt', 'write', 'edited');
        const kind = `${op}:${out.isError ? String(out.failure?.code) : 'ok'}`;
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
        for (const name of await readdir(outside)) {
          if (name !== 'secret' && !landedOutside.has(name)) {
            landedOutside.set(name, `${name} (seen after call ${i}, which returned ${kind})`);
          }
        }
      }
    } finally {
      stdout = await swapper.stop();
    }
    const summary = `swapper: ${stdout}; outcomes: ${JSON.stringify(Object.fromEntries(outcomes))}`;
    // The race was really run: the swapper swapped, and the guard or the re-check refused some.
    expect(stdout, summary).toMatch(/swaps=[1-9]/);
    expect([...landedOutside.values()], `writes landed in the outside dir. ${summary}`).toEqual([]);
    await expectOutsideUntouched();
    expect((await lstat(dir)).isDirectory()).toBe(true);
  }, 40_000);

  it('while a concurrent process swaps a workdir dir for a symlink to an outside dir, no read (or edit) returns outside content', async () => {
    const iterations = 300;
    const dir = path.join(root, 'dir');
    await mkdir(dir);
    // Same name inside and outside: a read that follows the swapped-in symlink finds a file.
    await writeFile(path.join(dir, 'secret'), 'inside\n');
    const swapper = await startSwapper(dir);
    const outcomes = new Map<string, number>();
    let leaked = 0;
    let leakedByEdit = 0;
    const unexpected = new Set<string>();
    let stdout = '';
    try {
      const deadline = Date.now() + 15_000;
      for (let i = 0; i < iterations && Date.now() < deadline; i += 1) {
        const out = await read('dir/secret');
        if (out.content.includes('TOP-SECRET')) leaked += 1;
        const kind = out.isError ? String(out.failure?.code) : 'ok';
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
        // Every answer is the inside file or a refusal, whichever state the swap was in.
        if (!out.isError && out.content !== '1: inside') unexpected.add(out.content);
        if (i % 3 === 0) {
          // edit reads the file too, and a failed match quotes the closest region of it.
          const edited = await edit('dir/secret', 'TOP-SECRET-X', 'x');
          if (/TOP-SECRET$/m.test(edited.content)) {
            leakedByEdit += 1;
          }
          const editKind = `edit:${String(edited.failure?.code)}`;
          outcomes.set(editKind, (outcomes.get(editKind) ?? 0) + 1);
        }
      }
    } finally {
      stdout = await swapper.stop();
    }
    const summary = `swapper: ${stdout}; outcomes: ${JSON.stringify(Object.fromEntries(outcomes))}`;
    expect(stdout, summary).toMatch(/swaps=[1-9]/);
    expect(leaked, `reads returned the outside file. ${summary}`).toBe(0);
    expect(leakedByEdit, `edits quoted the outside file. ${summary}`).toBe(0);
    expect([...unexpected], summary).toEqual([]);
    await expectOutsideUntouched();
    expect(await readFile(path.join(dir, 'secret'), 'utf8')).toBe('inside\n');
  }, 40_000);
});
