import { describe, expect, it } from 'vitest';
import { costLabel, formatCost } from './format-cost.js';

describe('formatCost', () => {
  it.each([
    [0, '$0.0000'],
    [0.00001234, '$0.000012'],
    [0.0000001, '$0.00000010'],
    [0.0001, '$0.0001'],
    [0.0028, '$0.0028'],
    [0.0123, '$0.0123'],
    [0.12345, '$0.1235'],
    [0.99996, '$1.00'],
    [1, '$1.00'],
    [1.5, '$1.50'],
    [123.456, '$123.46'],
    [12_345.678, '$12345.68'],
  ])('shows %d USD as %s', (usd, text) => {
    expect(formatCost(usd)).toBe(text);
  });

  it.each([-0.01, Number.NaN, Number.POSITIVE_INFINITY])('refuses %d, which is no cost', (usd) => {
    expect(() => formatCost(usd)).toThrow(RangeError);
  });
});

describe('costLabel', () => {
  it('reads cost≈$… for a known cost, zero included', () => {
    expect(costLabel(0.0123)).toBe('cost≈$0.0123');
    expect(costLabel(0)).toBe('cost≈$0.0000');
  });

  it.each([undefined, -1, Number.NaN])('reads cost=unknown for %s', (usd) => {
    expect(costLabel(usd)).toBe('cost=unknown');
  });
});
