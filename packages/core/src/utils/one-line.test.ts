import { describe, expect, it } from 'vitest';
import { oneLine } from './one-line.js';

describe('oneLine', () => {
  it('folds every run of white space, newlines included, into one space', () => {
    expect(oneLine('  line one\n  line two\r\n\tend  ')).toBe('line one line two end');
  });

  it('cuts a long text to the limit, ending with an ellipsis', () => {
    const out = oneLine(`start ${'z'.repeat(1000)}`, 300);
    expect(out).toHaveLength(300);
    expect(out.startsWith('start z')).toBe(true);
    expect(out.endsWith('…')).toBe(true);
    expect(oneLine('short', 300)).toBe('short');
  });
});
