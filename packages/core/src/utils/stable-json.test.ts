import { describe, expect, it } from 'vitest';
import { stableJson } from './stable-json.js';

describe('stableJson', () => {
  it('writes keys sorted at every depth, so key order does not change the text', () => {
    const one = { b: [1, 'x', { d: null, c: true }], a: { z: -0, y: 1.5e21 }, u: undefined };
    const other = { a: { y: 1.5e21, z: -0 }, u: undefined, b: [1, 'x', { c: true, d: null }] };
    expect(stableJson(one)).toBe('{"a":{"y":1.5e+21,"z":0},"b":[1,"x",{"c":true,"d":null}]}');
    expect(stableJson(other)).toBe(stableJson(one));
  });

  it('writes what JSON.stringify writes for data whose keys are already sorted', () => {
    const value = { a: [1, null, 'two', { b: false }], c: 'text\n"quoted"', d: 0.1 };
    expect(stableJson(value)).toBe(JSON.stringify(value));
    expect(stableJson('text')).toBe('"text"');
    expect(stableJson(undefined)).toBe('null');
    expect(stableJson([undefined, () => 1, Number.NaN])).toBe('[null,null,null]');
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

  it('writes a value seen twice (not a cycle) both times', () => {
    const shared = { x: 1 };
    expect(stableJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});
