import { describe, expect, it } from 'vitest';
import { findCitations, isExempt } from './stands-alone.ts';

function rulesIn(line: string): string[] {
  return findCitations(line).map((citation) => citation.rule);
}

describe('citations it recognises', () => {
  it.each([
    ['// see SPEC §5 for the path guard', 'the product spec'],
    ['the reliability §5.2 goal', 'a section number'],
    ['rows of reliability.md', 'the reliability checklist'],
    ['as in reference/python-original.md', "the original implementation's notes"],
    ["const file = '/work/shared/x';", 'a machine path'],
    ['copied from shared/reference', 'the shared reference folder'],
    ['see seeds/tools.md', 'a seeds path'],
  ])('%s', (line, rule) => {
    expect(rulesIn(line)).toContain(rule);
  });

  it.each([
    "it('refuses ../ escapes (F1)', …",
    "it('refuses absolute paths outside the workdir (F2, F3)', …",
    "it('refuses a sibling-prefix directory (/tmp/a vs /tmp/ab, F4)', …",
    ' * the per-run read ledger (F29/F30), content',
    "it('refuses a file touched after it was read (F30: mtime only)', …",
    "'marks a tool call cut by max_tokens as invalid (P14, stream=%s)',",
    "it('F6: refuses to write through a symlink', …",
    "it('R13 keeps only keyed hashes', …",
    "describe('bash robustness (reliability E1–E11)', …",
    'Tests (including every F1–F35 / E1–E11 reliability row)',
    ' * between the checks and the write (check-to-use race, reliability F35).',
    ' * | F12 | write/index.test.ts "F12: …" |',
    '// Background children may keep stdout open forever (E4): bound the wait.',
  ])('a checklist row id used as a label: %s', (line) => {
    expect(rulesIn(line)).toContain('a checklist row id used as a label');
  });
});

describe('what it leaves alone', () => {
  it.each([
    String.raw`/^([A-Z][A-Z0-9]*-\d{3,})\s/`,
    String.raw`/\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b/`,
    '/-----BEGIN[ A-Z0-9_-]{0,100}-----/',
    "['k=%E0%A4%A', /not valid URL encoding/]",
    'run the E2E suite; press F5 to reload; colour #F00; HTTP/2',
    'the OpenAPI spec and a test spec',
    "import { workspaceTools } from './workspace-tools.js';",
    "const missingWorkdir = '/definitely/not/a/real/workdir';",
    'isInside("/srv/app", "/srv/app2")',
  ])('%s', (line) => {
    expect(findCitations(line)).toEqual([]);
  });

  it('skips the lockfile, changesets and its own pattern files', () => {
    expect(isExempt('pnpm-lock.yaml')).toBe(true);
    expect(isExempt('.changeset/tools-typed-failures-workspace.md')).toBe(true);
    expect(isExempt('scripts/stands-alone.ts')).toBe(true);
    expect(isExempt('scripts/stands-alone-rules.test.ts')).toBe(true);
    expect(isExempt('README.md')).toBe(false);
    expect(isExempt('packages/tools/src/index.ts')).toBe(false);
  });
});
