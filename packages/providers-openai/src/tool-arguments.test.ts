import { describe, expect, it } from 'vitest';
import { decodeToolArguments } from './tool-arguments.js';

describe('decodeToolArguments', () => {
  it('decodes a JSON object string', () => {
    expect(decodeToolArguments('{"path":"a.txt","limit":3}')).toEqual({
      arguments: { path: 'a.txt', limit: 3 },
    });
  });

  it('treats an empty string, whitespace or a missing value as no arguments', () => {
    for (const raw of ['', '  \n', undefined, null]) {
      expect(decodeToolArguments(raw)).toEqual({ arguments: {} });
    }
  });

  it('accepts arguments that a compatible server already decoded into an object', () => {
    expect(decodeToolArguments({ command: 'ls' })).toEqual({ arguments: { command: 'ls' } });
  });

  it('turns truncated JSON into an argumentsError quoting what was received, never a throw', () => {
    const decoded = decodeToolArguments('{"path": "a"');
    expect(decoded.arguments).toEqual({});
    expect(decoded.argumentsError).toMatch(/not valid JSON/);
    expect(decoded.argumentsError).toContain('{"path": "a"');
  });

  it.each([
    ['null', 'null'],
    ['[]', 'an array'],
    ['"str"', 'a string'],
    ['42', 'a number'],
    ['true', 'a boolean'],
  ])('rejects %s as not an object', (raw, kind) => {
    const decoded = decodeToolArguments(raw);
    expect(decoded.arguments).toEqual({});
    expect(decoded.argumentsError).toBe(`the arguments must be a JSON object, not ${kind}`);
  });

  it('rejects an already-decoded array or number too', () => {
    expect(decodeToolArguments([1]).argumentsError).toMatch(/not an array/);
    expect(decodeToolArguments(7).argumentsError).toMatch(/not a number/);
  });

  it('rejects numbers that overflow to Infinity, however deep', () => {
    expect(decodeToolArguments('{"timeout":1e309}').argumentsError).toMatch(/out of range/);
    expect(decodeToolArguments('{"a":[{"b":-1e999}]}').argumentsError).toMatch(/out of range/);
  });

  it('keeps the last of duplicate keys, so what is shown is what runs', () => {
    expect(decodeToolArguments('{"command":"ls","command":"rm -rf x"}').arguments).toEqual({
      command: 'rm -rf x',
    });
  });

  it('survives 10,000-deep nesting and 5 MB of arguments', () => {
    const deep = `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const decoded = decodeToolArguments(deep);
    expect(typeof decoded.arguments).toBe('object');
    const big = JSON.stringify({ content: 'x'.repeat(5 * 1024 * 1024) });
    expect((decodeToolArguments(big).arguments.content as string).length).toBe(5 * 1024 * 1024);
  });

  it('quotes at most a short preview of a huge invalid value', () => {
    const decoded = decodeToolArguments(`{"content":"${'y'.repeat(100_000)}`);
    expect(decoded.argumentsError?.length).toBeLessThan(500);
    expect(decoded.argumentsError).toContain('(100012 chars)');
  });
});
