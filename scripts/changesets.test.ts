import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { changesetProblems, workspacePackages } from './changesets.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packages = workspacePackages(repoRoot);

describe('changesets', () => {
  it('every pending changeset names workspace packages with a bump, never private and published ones together', () => {
    const dir = join(repoRoot, '.changeset');
    const problems = readdirSync(dir)
      .filter((name) => name.endsWith('.md') && name !== 'README.md')
      .flatMap((name) => changesetProblems(name, readFileSync(join(dir, name), 'utf8'), packages));
    expect(problems).toEqual([]);
  });

  it.each([
    ['---\n"tiny-claw": patch\n"@tiny-claw/core": minor\n---\n\ntext\n', /mixes private/],
    ['---\n"@tiny-claw/nope": patch\n---\n\ntext\n', /no workspace package is named/],
    ['---\n"@tiny-claw/core": huge\n---\n\ntext\n', /is not patch, minor or major/],
    ['no front matter\n', /no front matter/],
  ])('reports a broken changeset: %j', (text, problem) => {
    const found = changesetProblems('x.md', text, packages).map((entry) => entry.problem);
    expect(found.some((entry) => problem.test(entry))).toBe(true);
  });
});
