import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assessCall } from './assess-call.js';

// A glob expands before the program starts: a file named like an option turns `wc -l *.ts` into
// `wc -l --files0-from=list.ts …`. The policy lists the directory such a glob expands in.

let workdir: string;
beforeEach(async () => {
  workdir = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-glob-options-')));
  await writeFile(path.join(workdir, 'a.ts'), 'a\n');
});
afterEach(async () => {
  await rm(workdir, { recursive: true, force: true });
});

const verdict = async (command: string) =>
  assessCall({ name: 'bash', arguments: { command } }, { workdir, protectedPaths: [] });

describe('a glob that expands to a name the program reads as an option', () => {
  it.each([
    ['wc -l *.ts', '--files0-from=list.ts'],
    ['sort *.ts', '--compress-program=sh.ts'],
    ['cat ?-x.ts', '--x.ts'],
    ['grep -n hello *.ts', '-r.ts'],
    ['git diff *.ts', '--output=x.ts'],
  ])('%s asks when a file named %s is there', async (command, name) => {
    await writeFile(path.join(workdir, name), '');
    const judged = await verdict(command);
    expect(judged.verdict).toBe('approval_required');
    expect(judged.reasons.join('\n')).toContain(`matches a file named ${JSON.stringify(name)}`);
  });

  it.each(['wc -l *.ts', 'sort *.ts', 'cat ./*.ts', 'cat src/*.ts'])(
    '%s stays allowed when no such file is there',
    async (command) => {
      expect((await verdict(command)).verdict).toBe('allow');
    },
  );

  it('words after -- and globs that cannot start with - are operands whatever the files are called', async () => {
    await writeFile(path.join(workdir, '--files0-from=list.ts'), '');
    expect((await verdict('wc -l -- *.ts')).verdict).toBe('allow');
    expect((await verdict('wc -l ./*.ts')).verdict).toBe('allow');
    expect((await verdict('wc -l a*.ts')).verdict).toBe('allow');
  });
});
