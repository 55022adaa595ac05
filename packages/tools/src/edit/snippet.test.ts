import { describe, expect, it } from 'vitest';
import { numberedSnippet, SNIPPET_LIMITS } from './snippet.js';

describe('numbered snippet', () => {
  it('numbers the changed lines plus two lines of context like read', () => {
    const text = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\n';
    const from = text.indexOf('l4');
    expect(numberedSnippet(text, from, from + 2, 4)).toBe('2: l2\n3: l3\n4: l4\n5: l5\n6: l6');
  });

  it('clamps at the start and end of the file and drops CRs', () => {
    const text = 'a\r\nb\r\n';
    expect(numberedSnippet(text, 0, 1, 1)).toBe('1: a\n2: b');
  });

  it('elides the middle of long snippets', () => {
    const text = `${Array.from({ length: 100 }, (_, i) => `n${i + 1}`).join('\n')}\n`;
    const out = numberedSnippet(text, 0, text.length, 1);
    expect(out.split('\n')).toHaveLength(SNIPPET_LIMITS.headLines + SNIPPET_LIMITS.tailLines + 1);
    expect(out).toContain('lines not shown');
    expect(out.endsWith('100: n100')).toBe(true);
  });
});
