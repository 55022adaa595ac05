import { describe, expect, it } from 'vitest';
import { diffLines, shortDiff } from './api-report-diff.ts';

const numbered = (count: number, change?: [number, string]) =>
  `${Array.from({ length: count }, (_, i) => (change && change[0] === i ? change[1] : `line ${i + 1}`)).join('\n')}\n`;

describe('short diff of a stale report', () => {
  it('is empty when nothing changed', () => {
    expect(shortDiff('a\nb\n', 'a\nb\n')).toEqual([]);
  });

  it('marks removed and added lines and keeps the rest in order', () => {
    expect(diffLines('a\nb\nc\nd\n', 'a\nc\nx\nd\n')).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: ' ', text: 'c' },
      { op: '+', text: 'x' },
      { op: ' ', text: 'd' },
    ]);
  });

  it('shows one hunk per distant change with its line numbers and two lines of context', () => {
    const before = numbered(30);
    const after = numbered(30, [4, 'changed 5']).replace('line 25\n', 'line 25\nadded\n');
    expect(shortDiff(before, after)).toEqual([
      '@@ -3,5 +3,5 @@',
      ' line 3',
      ' line 4',
      '-line 5',
      '+changed 5',
      ' line 6',
      ' line 7',
      '@@ -24,4 +24,5 @@',
      ' line 24',
      ' line 25',
      '+added',
      ' line 26',
      ' line 27',
    ]);
  });

  it('stops after the line limit and says how much it left out', () => {
    const diff = shortDiff('', numbered(100), { maxLines: 10 });
    expect(diff).toHaveLength(11);
    expect(diff.at(-1)).toBe('… 91 more diff lines');
  });
});
