import { canonicalJson } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { stableJson } from './stable-json.js';

describe('stableJson', () => {
  it('matches core canonicalJson on plain JSON data', () => {
    const value = { b: [1, 'x', { d: null, c: true }], a: { z: -0, y: 1.5e21 }, u: undefined };
    expect(stableJson(value)).toBe(canonicalJson(value));
    expect(stableJson('text')).toBe('"text"');
  });

  it('survives cycles, throwing getters, bigints and toJSON', () => {
    const cyclic: Record<string, unknown> = { a: 1n, when: new Date(0) };
    cyclic.self = cyclic;
    Object.defineProperty(cyclic, 'bad', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    expect(stableJson(cyclic)).toBe(
      '{"a":"1","bad":"[unreadable]","self":"[circular]","when":"1970-01-01T00:00:00.000Z"}',
    );
  });
});
