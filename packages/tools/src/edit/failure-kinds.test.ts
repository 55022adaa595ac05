import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext, ToolOutput } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReadLedger } from '../file-state/read-ledger.js';
import { createReadTool } from '../read/index.js';
import { createEditTool } from './index.js';

const EVERY_TOOL = ['read', 'write', 'edit', 'bash'];

let base: string;
let root: string;
let ledger: ReadLedger;

function ctx(visibleTools: readonly string[]): ToolContext {
  return {
    workdir: root,
    signal: new AbortController().signal,
    toolCallId: 'call-1',
    runId: 'run-1',
    visibleTools,
  };
}

async function edit(
  args: Record<string, unknown>,
  visibleTools: readonly string[] = EVERY_TOOL,
): Promise<ToolOutput> {
  const tool = createEditTool({ readLedger: ledger });
  return tool.run(tool.parse(args), ctx(visibleTools));
}

async function put(file: string, content: string | Buffer, { read = true } = {}): Promise<void> {
  await writeFile(path.join(root, file), content);
  if (!read) return;
  const tool = createReadTool({ readLedger: ledger });
  await tool.run(tool.parse({ path: file }), ctx(['read']));
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-edit-kinds-')));
  root = path.join(base, 'w');
  await mkdir(path.join(root, 'src'), { recursive: true });
  ledger = new ReadLedger();
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('edit failures carry the kind core acts on', () => {
  it('old_text that is not in the file is no_match; several places are ambiguous_match', async () => {
    await put('a.ts', 'let a = 1;\nlet a = 1;\n');
    const missing = await edit({ path: 'a.ts', old_text: 'let b = 2;', new_text: 'x' });
    expect(missing.failure?.kind).toBe('no_match');
    expect(missing.failure?.code).toBe('edit_old_text_not_found');
    const twice = await edit({ path: 'a.ts', old_text: 'let a = 1;', new_text: 'x' });
    expect(twice.failure?.kind).toBe('ambiguous_match');
    expect(twice.failure?.code).toBe('edit_multiple_matches');
  });

  it.each([
    ['a path outside the workdir', '../x.ts', 'outside_workdir'],
    ['a path inside .git', '.git/config', 'protected_path'],
    ['a missing file', 'src/missing.ts', 'not_found'],
    ['a directory', 'src', 'unsupported_target'],
  ])('%s', async (_name, file, kind) => {
    const out = await edit({ path: file, old_text: 'a', new_text: 'b' });
    expect(out.failure?.kind).toBe(kind);
  });

  it('an empty old_text is invalid arguments and suggests write for whole files', async () => {
    await put('a.ts', 'x\n');
    const out = await edit({ path: 'a.ts', old_text: '', new_text: 'y' });
    expect(out.failure).toMatchObject({ kind: 'invalid_arguments', suggestedTool: 'write' });
    const noWrite = await edit({ path: 'a.ts', old_text: '', new_text: 'y' }, ['edit']);
    expect(noWrite.failure?.advice).not.toContain('write');
  });

  it('a file that is not UTF-8 is an unsupported target whose advice never says to read it', async () => {
    await put('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const out = await edit({ path: 'latin1.txt', old_text: 'caf', new_text: 'x' });
    expect(out.failure).toMatchObject({ kind: 'unsupported_target', suggestedTool: 'bash' });
    expect(out.failure?.advice).not.toMatch(/\bread\b/i);
    const noBash = await edit({ path: 'latin1.txt', old_text: 'caf', new_text: 'x' }, ['edit']);
    expect(noBash.failure?.advice).not.toMatch(/bash|\bread\b/i);
  });
});

describe('edit advice points to read only when the model can call it', () => {
  it('no match with read visible: read the file, then copy old_text exactly', async () => {
    await put('a.ts', 'let a = 1;\n');
    const out = await edit({ path: 'a.ts', old_text: 'let b = 2;', new_text: 'x' });
    expect(out.failure).toMatchObject({ kind: 'no_match', suggestedTool: 'read' });
    expect(out.failure?.advice).toContain('Call read on a.ts');
  });

  it('no match without read: copy from the content last seen, suggesting no tool', async () => {
    await put('a.ts', 'let a = 1;\n');
    const out = await edit({ path: 'a.ts', old_text: 'let b = 2;', new_text: 'x' }, ['edit']);
    expect(out.failure?.suggestedTool).toBeUndefined();
    expect(out.failure?.advice).toContain(
      'Copy old_text exactly from the file content you last saw',
    );
    expect(out.content).not.toMatch(/\bread the file\b/i);
  });

  it('several matches: read first only when read is visible, always replace_all or a longer old_text', async () => {
    await put('a.ts', 'x\nx\n');
    const seen = await edit({ path: 'a.ts', old_text: 'x', new_text: 'y' });
    expect(seen.failure).toMatchObject({ kind: 'ambiguous_match', suggestedTool: 'read' });
    expect(seen.failure?.advice).toMatch(/^Read the file, then make old_text longer/);
    const blind = await edit({ path: 'a.ts', old_text: 'x', new_text: 'y' }, ['edit', 'bash']);
    expect(blind.failure?.suggestedTool).toBeUndefined();
    expect(blind.failure?.advice).toMatch(/^Make old_text longer/);
    expect(blind.failure?.advice).toContain('replace_all');
  });

  it('a file not read in this run is a stale read: read it first, or tell the user', async () => {
    await put('a.ts', 'let a = 1;\n', { read: false });
    const out = await edit({ path: 'a.ts', old_text: 'a', new_text: 'b' });
    expect(out.failure?.code).toBe('file_not_read');
    expect(out.failure).toMatchObject({ kind: 'stale_read', suggestedTool: 'read' });
    const blind = await edit({ path: 'a.ts', old_text: 'a', new_text: 'b' }, ['edit']);
    expect(blind.failure?.suggestedTool).toBeUndefined();
    expect(blind.failure?.advice).toContain('tell the user');
  });

  it('a file changed since it was read is a stale read that asks for a fresh read', async () => {
    await put('a.ts', 'let a = 1;\n');
    const later = new Date(Date.now() + 5_000);
    await utimes(path.join(root, 'a.ts'), later, later);
    const out = await edit({ path: 'a.ts', old_text: 'a', new_text: 'b' });
    expect(out.failure).toMatchObject({ kind: 'stale_read', suggestedTool: 'read' });
    expect(out.failure?.advice).toContain('Call read on a.ts again');
  });

  it('a missing file: list the parent through bash if visible; create it with write if visible', async () => {
    const both = await edit({ path: 'src/new.ts', old_text: 'a', new_text: 'b' });
    expect(both.failure).toMatchObject({ kind: 'not_found', suggestedTool: 'bash' });
    expect(both.failure?.advice).toContain('`ls src`');
    expect(both.failure?.advice).toContain('create it with write');
    const alone = await edit({ path: 'src/new.ts', old_text: 'a', new_text: 'b' }, ['edit']);
    expect(alone.failure?.suggestedTool).toBeUndefined();
    expect(alone.failure?.advice).not.toMatch(/bash|write/);
  });
});

/** Advice that sends the model back to read, which would refuse the file again. */
const LOOPS_TO_READ = /call read on [^,;]*\b(first|again)|read (it|the file) (first|again)/i;

describe('edit of a file that read refuses does not loop back to "read it first"', () => {
  it.each([
    ['with a NUL byte', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0x0a])],
    // Valid UTF-8 edit could decode, but read's sniff calls it binary.
    ['made mostly of control bytes', Buffer.from('\u0001\u0002\u0003\u0004a\u0005\u0006\n')],
  ])(
    'a binary file %s: read cannot show it, so the advice says so and points to bash',
    async (_name, bytes) => {
      await put('logo.bin', bytes, { read: false });
      const out = await edit({ path: 'logo.bin', old_text: 'a', new_text: 'b' });
      expect(out.isError).toBe(true);
      expect(out.failure?.code).toBe('binary_file');
      expect(out.content).toContain('binary file, which read cannot show');
      expect(out.failure).toMatchObject({ kind: 'unsupported_target', suggestedTool: 'bash' });
      expect(out.failure?.advice).toContain('do not call read on this one');
      expect(out.failure?.advice).not.toMatch(LOOPS_TO_READ);
    },
  );

  it('names only visible tools: write when bash is hidden, nothing when both are', async () => {
    await put('logo.bin', Buffer.from([0, 1, 2, 0x61]), { read: false });
    const withWrite = await edit({ path: 'logo.bin', old_text: 'a', new_text: 'b' }, [
      'edit',
      'write',
    ]);
    expect(withWrite.failure?.suggestedTool).toBeUndefined();
    expect(withWrite.failure?.advice).toContain('new file with write');
    expect(withWrite.failure?.advice).not.toMatch(/bash|call read/i);
    const alone = await edit({ path: 'logo.bin', old_text: 'a', new_text: 'b' }, ['edit']);
    expect(alone.failure?.advice).not.toMatch(/bash|write|call read/i);
    expect(alone.failure?.advice).toContain('tell the user');
  });
});
