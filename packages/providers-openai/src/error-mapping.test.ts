import { describe, expect, it } from 'vitest';
import { displayUrl, isContextLengthError, scrubSecrets } from './error-mapping.js';

describe('scrubSecrets', () => {
  const key = 'sk-proj-SECRETabcdefghijklmnop0123wxyz';

  it('removes the configured key and OpenAI-style keys, masked or not', () => {
    const out = scrubSecrets(
      `Incorrect API key provided: sk-proj-SEC*************wxyz. Also ${key} and sk-or-v1-0123456789abcdef and gsk_ABCDEF123456.`,
      key,
    );
    expect(out).toBe(
      'Incorrect API key provided: [redacted]. Also [redacted] and [redacted] and [redacted].',
    );
    expect(out).not.toMatch(/SEC|wxyz|0123|ABCDEF/);
  });

  it('removes bearer tokens and any masked token', () => {
    expect(scrubSecrets('header Authorization: Bearer abc.def.ghi was bad')).toBe(
      'header Authorization: Bearer [redacted] was bad',
    );
    expect(scrubSecrets('key ab12****yz89 rejected')).toBe('key [redacted] rejected');
  });

  it('makes one short line and keeps ordinary words', () => {
    const out = scrubSecrets(`line one\n  line two\r\n${'z'.repeat(1000)}`);
    expect(out).not.toMatch(/\n/);
    expect(out.startsWith('line one line two ')).toBe(true);
    expect(out.length).toBeLessThanOrEqual(301);
    expect(scrubSecrets('the task-runner is at risk-free skip')).toBe(
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

describe('isContextLengthError (P15)', () => {
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
