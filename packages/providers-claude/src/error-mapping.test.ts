import { APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { redactUrl, toProviderError } from './error-mapping.js';

const context = {
  model: 'claude-test',
  baseUrl: 'https://api.anthropic.com',
  timeoutMs: 1000,
  secrets: ['sk-ant-secret-key'],
};

function apiError(status: number, type: string, message: string): APIError {
  return APIError.generate(
    status,
    { type: 'error', error: { type, message } },
    undefined,
    new Headers(),
  );
}

describe('toProviderError', () => {
  it.each([
    [413, 'request_too_large', 'prompt is too long: 250000 tokens', 'context_length'],
    [
      400,
      'invalid_request_error',
      'input length and `max_tokens` exceed context limit: 187254 + 20000 > 204798',
      'context_length',
    ],
    [400, 'invalid_request_error', 'credit balance is too low', 'bad_request'],
    [408, 'timeout_error', 'timeout', 'timeout'],
    [409, 'conflict', 'busy', 'server'],
    [503, 'api_error', 'unavailable', 'server'],
  ])('maps %i %s "%s" to %s', (status, type, message, kind) => {
    expect(toProviderError(apiError(status, type, message), context)).toMatchObject({
      kind,
      status,
    });
  });

  it('maps the SDK timeout error to kind timeout', () => {
    expect(toProviderError(new APIConnectionTimeoutError(), context)).toMatchObject({
      kind: 'timeout',
      isRetryable: true,
    });
  });

  it('maps an undecodable body to invalid_response', () => {
    const error = toProviderError(new SyntaxError('Unexpected token n'), context);
    expect(error).toMatchObject({ kind: 'invalid_response', isRetryable: false });
    expect(error.message).toMatch(/^Claude request failed: /);
  });

  it('keeps the message on one line and bounded even for an HTML error page', () => {
    const page = `<html>\n<body>${'bad gateway '.repeat(500)}</body>\n</html>`;
    const error = toProviderError(
      APIError.generate(502, page as unknown as object, undefined, new Headers()),
      context,
    );
    expect(error.message).not.toContain('\n');
    expect(error.message.length).toBeLessThan(700);
  });

  it('scrubs the configured key from upstream text and from the cause', () => {
    const error = toProviderError(
      apiError(400, 'invalid_request_error', 'echo sk-ant-secret-key'),
      context,
    );
    expect(error.message).not.toContain('secret');
    expect(String((error.cause as Error).message)).not.toContain('secret');
  });

  it('drops credentials, query values and fragments from a base URL before showing it', () => {
    expect(redactUrl('https://user:pw@proxy.example/v1')).toBe('https://proxy.example/v1');
    expect(redactUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(redactUrl('https://proxy.example/v1?api_key=s3cret&x=1#frag')).toBe(
      'https://proxy.example/v1',
    );
  });
});
