import { describe, expect, it } from 'vitest';
import { decodeToolInput, decodeToolInputJson, MAX_ARGUMENT_DEPTH } from './tool-input.js';

describe('decodeToolInputJson', () => {
  it('decodes an object and treats no deltas as {}', () => {
    expect(decodeToolInputJson('{"path":"a"}')).toEqual({ arguments: { path: 'a' } });
    expect(decodeToolInputJson('')).toEqual({ arguments: {} });
  });

  it.each([
    ['{"path": "a"', /^invalid JSON/],
    ['null', /must be a JSON object, got null/],
    ['[]', /must be a JSON object, got an array/],
    ['"str"', /must be a JSON object, got a string "str"/],
    ['42', /must be a JSON object, got number 42/],
  ])('keeps %s as {} with an argumentsError', (raw, error) => {
    const decoded = decodeToolInputJson(raw);
    expect(decoded.arguments).toEqual({});
    expect(decoded.argumentsError).toMatch(error);
  });

  it('passes wrong types and extra keys through for the tool schema to judge', () => {
    expect(decodeToolInputJson('{"path":123}')).toEqual({ arguments: { path: 123 } });
    expect(decodeToolInputJson('{"path":"a","extra":1}')).toEqual({
      arguments: { path: 'a', extra: 1 },
    });
  });

  it('keeps one value for a duplicated key, so what is shown is what runs', () => {
    expect(decodeToolInputJson('{"command":"ls","command":"rm -rf x"}')).toEqual({
      arguments: { command: 'rm -rf x' },
    });
  });

  it('rejects numbers JSON parses to Infinity, naming where', () => {
    const decoded = decodeToolInputJson('{"opts":{"timeout":1e309}}');
    expect(decoded).toEqual({
      arguments: {},
      argumentsError: expect.stringContaining('$.opts.timeout'),
    });
    expect(decodeToolInput({ list: [1, Number.NaN] }).argumentsError).toContain('$.list[1]');
  });

  it('rejects 10 000-deep nesting without overflowing the stack', () => {
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const decoded = decodeToolInputJson(deep);
    expect(decoded.arguments).toEqual({});
    expect(decoded.argumentsError).toContain(`deeper than ${MAX_ARGUMENT_DEPTH}`);
  });

  it('accepts 5 MB of arguments', () => {
    const content = 'x'.repeat(5 * 1024 * 1024);
    expect(decodeToolInputJson(JSON.stringify({ path: 'big', content })).arguments.content).toBe(
      content,
    );
  });
});
