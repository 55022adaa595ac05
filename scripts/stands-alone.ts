/**
 * The repository stands alone: no tracked file cites a document outside it — a product spec by
 * section, a reliability checklist, the original implementation's notes, the machine paths they
 * live under, or the checklist's row ids used as labels. A test or a comment says the rule in
 * words instead, so a reader with only this repository understands it.
 *
 * The lockfile and `.changeset/*` are not scanned (generated, or release notes written for a
 * moment in time), nor are this checker and its rules' test, which must spell the patterns out.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One kind of citation and how to find it on a line.
 *
 * @example
 * const rule: CitationRule = { name: 'section number', pattern: /§\s?\d/ };
 */
export interface CitationRule {
  name: string;
  pattern: RegExp;
}

/**
 * One citation found in a file.
 *
 * @example
 * const found: Citation = { file: 'README.md', line: 3, rule: 'section number', text: '§5' };
 */
export interface Citation {
  file: string;
  line: number;
  rule: string;
  text: string;
}

// The outside checklist numbers its rows with one letter and a number: F (file tools), E (bash
// execution), B (bash classification), W (webhook), S (state), Z (redaction), P (providers),
// R (traces), L (limits).
const ROW = String.raw`[BEFLPRSWZ]\d{1,2}`;

/**
 * Row ids count only when used as labels, so a letter and a digit that happen to meet are not
 * flagged: regex classes like `[A-Z0-9]` or `[A-Z2-7]`, URL escapes like `%E0%A4`, `E2E`, hex
 * colours, a lone `F5` key in prose. Labels look like
 * - a parenthesised reference: `(F35)`, `(F2, F3)`, `(F29/F30)`, `(F30: mtime only)`,
 *   `(P14, stream=…)`, or one closing a list, `(/tmp/a vs /tmp/ab, F4)`;
 * - a range: `F1–F35`, `P7-P9`;
 * - the start of a quoted test name: `'F6: refuses …'`, `'R13 keeps …'`;
 * - a named reference: `reliability F35`, `row E4`;
 * - a checklist table row: `| F1 | …`.
 */
const ROW_LABEL = new RegExp(
  [
    String.raw`\(\s*${ROW}\s*[),:/–—-]`,
    String.raw`[,/]\s*${ROW}\s*\)`,
    String.raw`(?<![\w%#])${ROW}\s*[–—-]\s*${ROW}(?![\w.])`,
    String.raw`['"\`]${ROW}(?::|\s)`,
    String.raw`\b(?:reliability|rows?)\s+${ROW}\b`,
    String.raw`^\s*\|\s*${ROW}\s*\|`,
  ].join('|'),
);

/**
 * What counts as a citation of an outside document.
 *
 * @example
 * CITATION_RULES.map((rule) => rule.name);
 */
export const CITATION_RULES: readonly CitationRule[] = [
  // Uppercase only: "spec" in prose (an OpenAPI spec, a test spec) is fine.
  { name: 'the product spec', pattern: /\bSPEC\b/ },
  { name: 'a section number', pattern: /§\s?\d/ },
  { name: 'the reliability checklist', pattern: /reliability\.md/ },
  { name: "the original implementation's notes", pattern: /python-original/ },
  { name: 'a machine path', pattern: /(?<![\w.-])\/work\// },
  { name: 'the shared reference folder', pattern: /shared\/reference/ },
  { name: 'a seeds path', pattern: /(?<![\w-])seeds\// },
  { name: 'a checklist row id used as a label', pattern: ROW_LABEL },
];

/**
 * Every citation in `text`, with 1-based line numbers.
 *
 * @example
 * findCitations('see SPEC §5\n'); // [{ line: 1, rule: 'the product spec', text: 'SPEC' }, …]
 */
export function findCitations(text: string): Array<Omit<Citation, 'file'>> {
  const found: Array<Omit<Citation, 'file'>> = [];
  text.split('\n').forEach((line, index) => {
    for (const rule of CITATION_RULES) {
      const match = rule.pattern.exec(line);
      if (match) found.push({ line: index + 1, rule: rule.name, text: match[0] });
    }
  });
  return found;
}

const EXEMPT = new Set([
  'pnpm-lock.yaml',
  'scripts/stands-alone.ts',
  'scripts/stands-alone-rules.test.ts',
]);

/**
 * Whether a tracked file is left out of the scan.
 *
 * @example
 * isExempt('.changeset/tools-minor.md'); // true
 */
export function isExempt(file: string): boolean {
  return EXEMPT.has(file) || file.startsWith('.changeset/');
}

/**
 * Scan every git-tracked text file of the repository at `root` (binary files, recognised by a
 * NUL byte, and files deleted from the work tree are skipped).
 *
 * @example
 * scanRepository(process.cwd()).map((c) => `${c.file}:${c.line}`);
 */
export function scanRepository(root: string): Citation[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  const citations: Citation[] = [];
  for (const file of listed.split('\0')) {
    if (file === '' || isExempt(file)) continue;
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(root, file));
    } catch {
      continue;
    }
    if (bytes.includes(0)) continue;
    for (const citation of findCitations(bytes.toString('utf8'))) {
      citations.push({ file, ...citation });
    }
  }
  return citations;
}
