import { describe, expect, it } from 'vitest';
import { parseOtelHeaders } from './index.js';

describe('TINY_CLAW_OTEL_HEADERS parses like OTEL_EXPORTER_OTLP_HEADERS but rejects typos', () => {
  it('reads comma-separated key=value pairs with URL-encoded values', () => {
    expect(
      parseOtelHeaders(' x-honeycomb-team = abc123 ,Authorization=Basic%20dXNlcjpwYXNz=, '),
    ).toEqual({ 'x-honeycomb-team': 'abc123', Authorization: 'Basic dXNlcjpwYXNz=' });
    expect(parseOtelHeaders('')).toEqual({});
  });

  it.each([
    ['a=1,,b=2', /entry 2 is empty/],
    ['novalue', /entry 1 has no key=value/],
    ['=secret', /entry 1 has no key=value/],
    ['bad key=1', /not a valid HTTP header name/],
    ['k=%E0%A4%A', /not valid URL encoding/],
    ['k=', /value is empty/],
    ['k=a%0Ab', /control characters/],
  ])('%j is rejected', (text, message) => {
    expect(() => parseOtelHeaders(text)).toThrow(message);
  });

  it('never repeats a value in its error message', () => {
    expect(() => parseOtelHeaders('token=%ZZsupersecret')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('supersecret') }),
    );
  });
});
