import { describe, expect, it } from 'vitest';
import { displayUrl, isContextLengthError, safeDetail } from './error-mapping.js';

describe('safeDetail', () => {
  it('removes the configured key, masked or whole, and keeps the server’s words', () => {
    const key = 'sk-proj-SECRETabcdefghijklmnop0123wxyz';
    expect(
      safeDetail(`Incorrect API key provided: sk-proj-SEC*************wxyz. Also ${key}.`, key),
    ).toBe('Incorrect API key provided: [redacted]. Also [redacted].');
  });

  it('makes one line of at most 300 characters and keeps ordinary words', () => {
    const out = safeDetail(`line one\n  line two\r\n${'z'.repeat(1000)}`, 'k');
    expect(out).not.toMatch(/\n/);
    expect(out.startsWith('line one line two ')).toBe(true);
    expect(out.length).toBeLessThanOrEqual(300);
    expect(safeDetail('the task-runner is at risk-free skip', 'k')).toBe(
      'the task-runner is at risk-free skip',
    );
  });
});

describe('displayUrl', () => {
  it('drops credentials, query and fragment', () => {
    expect(displayUrl('https://user:pw@example.com/v1/?api-key=x#y')).toBe(
      'https://example.com/v1',
    );
    expect(displayUrl('not a url')).toBe('(invalid base URL)');
  });
});

describe('isContextLengthError', () => {
  it.each([
    [400, 'context_length_exceeded', 'whatever'],
    [400, null, "This model's maximum context length is 8192 tokens. However, you requested 9000"],
    [400, null, 'prompt is too long: 209840 tokens > 200000 maximum'],
    [400, null, 'the request exceeds the available context size, try increasing it'],
    [400, null, 'input length exceeds the context length'],
    [413, null, 'Request Entity Too Large'],
  ])('%s %s %s is a context-length error', (status, code, message) => {
    expect(isContextLengthError(status, code, message)).toBe(true);
  });

  it.each([
    [400, null, "Invalid 'tools[0].function.description': string too long."],
    [400, null, "Unsupported parameter: 'max_tokens'"],
    [500, 'context_length_exceeded', 'server exploded'],
  ])('%s %s %s is not', (status, code, message) => {
    expect(isContextLengthError(status, code, message)).toBe(false);
  });
});
