import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdit } from './apply-edit.js';
import { commonIndent } from './line-window.js';
import { findMatch } from './matcher.js';
import { detectTextFormat } from './text-format.js';

// Reproduce a failure with FC_SEED=<seed> (printed in the error); FC_NUM_RUNS digs deeper locally.
const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : Math.floor(Math.random() * 2 ** 31);
const NUM_RUNS = process.env.FC_NUM_RUNS ? Number(process.env.FC_NUM_RUNS) : 300;

/** A file line: indentation depth (in units) and a token unique to the line, or blank. */
interface Line {
  depth: number;
  blank: boolean;
  tail: string;
}

const TAILS = ['', ' = 1', ' {', ' }', '()', ' + b', ':'] as const;

/** Blank lines about one in eight. */
const lineArb: fc.Arbitrary<Line> = fc.record({
  depth: fc.integer({ min: 0, max: 3 }),
  blank: fc.integer({ min: 0, max: 7 }).map((roll) => roll === 0),
  tail: fc.constantFrom(...TAILS),
});

/** Stray text before and after old_text, as a model copying from `read` output produces it. */
const LEADS = ['', '\n', '  \n', '\t\n'] as const;
const TRAILS = ['', '\n', '\n\n', '\n    ', '   \n', '\n\t'] as const;

interface Case {
  unit: string;
  lines: Line[];
  trailingNewline: boolean;
  start: number;
  length: number;
  changed: number;
  /** Characters of the block's common indent missing from old_text's lines. */
  shift: number;
  /** new_text written at old_text's depth (true) or at the file's real depth (false). */
  newAtOldDepth: boolean;
  lead: string;
  trail: string;
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    unit: fc.constantFrom('    ', '  ', '\t'),
    lines: fc.array(lineArb, { minLength: 3, maxLength: 24 }),
    trailingNewline: fc.boolean(),
    start: fc.nat(),
    length: fc.integer({ min: 1, max: 4 }),
    changed: fc.nat(),
    shift: fc.nat(),
    newAtOldDepth: fc.boolean(),
    lead: fc.constantFrom(...LEADS),
    trail: fc.constantFrom(...TRAILS),
  })
  .map((raw) => {
    const lines = raw.lines;
    const start = raw.start % lines.length;
    const length = Math.min(raw.length, lines.length - start);
    return { ...raw, start, length };
  });

function render(line: Line, index: number, unit: string, token = `tok${index}z`): string {
  return line.blank ? '' : `${unit.repeat(line.depth)}${token}${line.tail}`;
}

/** The file, old_text, new_text and the file as it must read after the edit. */
function build(
  c: Case,
): { file: string; oldText: string; newText: string; expected: string } | undefined {
  const block = c.lines.slice(c.start, c.start + c.length);
  const first = block[0];
  const last = block[block.length - 1];
  // A whole-line block: first and last lines carry content.
  if (!first || !last || first.blank || last.blank) return undefined;
  const contentIndexes = block.flatMap((line, i) => (line.blank ? [] : [i]));
  const changed = contentIndexes[c.changed % contentIndexes.length] as number;
  const fileLines = c.lines.map((line, i) => render(line, i, c.unit));
  const blockLines = fileLines.slice(c.start, c.start + c.length);
  const newBlockLines = block.map((line, i) =>
    render(line, c.start + i, c.unit, i === changed ? `changed${c.start + i}z` : undefined),
  );
  const common = commonIndent(blockLines);
  const shift = c.shift % (common.length + 1);
  const dedent = (text: string) => (text === '' ? '' : text.slice(shift));
  const oldText = `${c.lead}${blockLines.map(dedent).join('\n')}${c.trail}`;
  const newBody = c.newAtOldDepth ? newBlockLines.map(dedent) : newBlockLines;
  // new_text repeats old_text's stray lines, not trailing spaces typed on its last line.
  const newText = `${c.lead}${newBody.join('\n')}${c.trail.replace(/^[ \t]+/, '')}`;
  // The rule under test is about old_text that spans lines.
  if (!oldText.includes('\n')) return undefined;
  const end = c.trailingNewline ? '\n' : '';
  const expectedLines = [...fileLines];
  expectedLines.splice(c.start, c.length, ...newBlockLines);
  return {
    file: `${fileLines.join('\n')}${end}`,
    oldText,
    newText,
    expected: `${expectedLines.join('\n')}${end}`,
  };
}

function edit(file: string, oldText: string, newText: string): string | undefined {
  const outcome = findMatch(file, oldText);
  if (!outcome.found || outcome.matches.length !== 1) return undefined;
  return applyEdit({
    body: file,
    matches: outcome.matches,
    newText,
    format: detectTextFormat(file),
    stripLinePrefixes: outcome.lineNumberPrefixStripped,
  }).text;
}

describe('an edit whose old_text spans lines lands on whole lines at their own indentation', () => {
  it(`no line gets an indentation its block did not have, and no other place is edited (seed ${SEED})`, () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const built = build(c);
        fc.pre(built !== undefined);
        if (built === undefined) return;
        const after = edit(built.file, built.oldText, built.newText);
        // A unique block copied at another depth or with stray blank lines is always found.
        expect(after, JSON.stringify(built)).toBeDefined();
        expect(after).toBe(built.expected);
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  });

  it(`with a second identical copy of the block, edits one of the copies or refuses (seed ${SEED})`, () => {
    fc.assert(
      fc.property(caseArb, fc.nat(), (c, at) => {
        const built = build(c);
        fc.pre(built !== undefined);
        if (built === undefined) return;
        const fileLines = built.file.split('\n');
        const blockLines = fileLines.slice(c.start, c.start + c.length);
        const newLines = built.expected.split('\n').slice(c.start, c.start + c.length);
        // The copy goes right before or right after the block: either way the two copies are
        // at c.start and c.start + c.length.
        const withCopy = [...fileLines];
        withCopy.splice(at % 2 === 0 ? c.start : c.start + c.length, 0, ...blockLines);
        const file = withCopy.join('\n');
        const editedAt = (where: number) => {
          const lines = [...withCopy];
          lines.splice(where, c.length, ...newLines);
          return lines.join('\n');
        };
        const after = edit(file, built.oldText, built.newText);
        if (after === undefined) return;
        expect([editedAt(c.start), editedAt(c.start + c.length)]).toContain(after);
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  });
});
