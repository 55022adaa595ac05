import { symlink } from 'node:fs/promises';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DescribeShellCommand, previewCall } from './call-preview.js';

let ws: TempWorkspace;
let outside: TempWorkspace;
beforeEach(async () => {
  ws = await createTempWorkspace({ 'config.ts': 'export const a = 1;\nexport const b = 2;\n' });
  outside = await createTempWorkspace({ 'secret.txt': 'OUTSIDE-SECRET\n' });
});
afterEach(async () => {
  await ws.cleanup();
  await outside.cleanup();
});

const noShell: DescribeShellCommand = async () => ({ commands: [], problems: [] });
const preview = (
  args: Record<string, unknown>,
  describeShellCommand = noShell,
  maxLines?: number,
) =>
  previewCall(
    { id: 'ap_0bX3kR9d2LqvYw7aP1sT4g', workdir: ws.dir, arguments: args },
    { color: false, describeShellCommand, ...(maxLines === undefined ? {} : { maxLines }) },
  );

describe('previewCall', () => {
  it('shows a whole-file write as a unified diff against the file as it is now', async () => {
    const lines = await preview({
      path: 'config.ts',
      content: 'export const a = 1;\nexport const b = 3;\n',
    });
    expect(lines).toEqual([
      '--- config.ts',
      '+++ config.ts',
      '@@ -1,2 +1,2 @@',
      ' export const a = 1;',
      '-export const b = 2;',
      '+export const b = 3;',
    ]);
  });

  it('shows a new file as its whole content', async () => {
    const lines = await preview({ path: 'new/.env', content: 'A=1\nB=2\n' });
    expect(lines).toEqual([
      'new file new/.env',
      '--- /dev/null',
      '+++ new/.env',
      '@@ -0,0 +1,2 @@',
      '+A=1',
      '+B=2',
    ]);
  });

  it('says so when the write changes nothing', async () => {
    expect(
      await preview({ path: 'config.ts', content: 'export const a = 1;\nexport const b = 2;\n' }),
    ).toEqual(['no change: the new content is the same as the file']);
  });

  it('never reads a file outside the workdir, even through a symlink inside it', async () => {
    await symlink(outside.path('secret.txt'), ws.path('link.txt'));
    for (const path of ['link.txt', outside.path('secret.txt'), '../secret.txt']) {
      const lines = await preview({ path, content: 'new\n' });
      expect(lines[0], path).toMatch(
        /resolves outside the workdir; its current content is not shown/,
      );
      expect(lines.join('\n')).not.toContain('OUTSIDE-SECRET');
      expect(lines).toContain('+new');
    }
  });

  it('shows an edit as its old and new text', async () => {
    const lines = await preview({
      path: 'config.ts',
      old_text: 'const b = 2;',
      new_text: 'const b = 20;',
      replace_all: true,
    });
    expect(lines).toEqual([
      'every occurrence is replaced (replace_all)',
      '--- config.ts (old text)',
      '+++ config.ts (new text)',
      '@@ -1,1 +1,1 @@',
      '-const b = 2;',
      '+const b = 20;',
    ]);
  });

  it('shows a shell command and every simple command it runs, with where each sits', async () => {
    const describe: DescribeShellCommand = async () => ({
      commands: [
        { text: 'echo $(rm -rf x)', origin: [] },
        { text: 'rm -rf x', origin: ['command substitution'] },
      ],
      problems: ['syntax_error: unexpected "&"'],
    });
    expect(await preview({ command: 'echo $(rm -rf x)' }, describe)).toEqual([
      'command:',
      '  echo $(rm -rf x)',
      'runs:',
      '  · echo $(rm -rf x)',
      '  · rm -rf x (in command substitution)',
      'analysis: syntax_error: unexpected "&"',
    ]);
  });

  it('still shows the command when the analysis fails', async () => {
    const broken: DescribeShellCommand = async () => {
      throw new Error('grammar missing');
    };
    expect(await preview({ command: 'ls' }, broken)).toEqual(['command:', '  ls']);
  });

  it('shows other calls as their arguments', async () => {
    expect(await preview({ url: 'https://example.test' })).toEqual([
      'arguments:',
      '  {',
      '    "url": "https://example.test"',
      '  }',
    ]);
  });

  it('makes escape sequences and invisible characters in the change visible', async () => {
    const lines = await preview({ path: 'x.txt', content: 'a\x1b[2J\u202eb\tc\n' });
    expect(lines).toContain('+a\\x1b[2J\\u202eb\tc');
    for (const raw of ['\x1b', '\u202e']) expect(lines.join('\n')).not.toContain(raw);
    const command = await preview({ command: 'echo \x1b]0;x\x07' });
    expect(command[1]).toBe('  echo \\x1b]0;x\\x07');
  });

  it('cuts a long preview short and says where the rest is', async () => {
    const content = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n');
    const lines = await preview({ path: 'long.txt', content }, noShell, 10);
    expect(lines).toHaveLength(12);
    expect(lines.at(-1)).toBe(
      '… 44 more lines (the full arguments: tiny-claw approvals show ap_0bX3kR9d2LqvYw7aP1sT4g --json)',
    );
  });
});
