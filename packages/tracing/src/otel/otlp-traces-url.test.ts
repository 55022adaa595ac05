import { ConfigurationError } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { createOtelTraceRecorder, otlpTracesUrl } from './index.js';

describe('the exporter posts to <endpoint>/v1/traces', () => {
  it.each([
    ['http://127.0.0.1:4318', 'http://127.0.0.1:4318/v1/traces'],
    ['http://127.0.0.1:4318/', 'http://127.0.0.1:4318/v1/traces'],
    ['https://collector.example/otlp', 'https://collector.example/otlp/v1/traces'],
    ['https://collector.example/otlp/v1/traces', 'https://collector.example/otlp/v1/traces'],
    [' http://localhost:4318// ', 'http://localhost:4318/v1/traces'],
  ])('%s → %s', (endpoint, url) => {
    expect(otlpTracesUrl(endpoint).href).toBe(url);
  });

  it.each(['', 'not a url', 'grpc://127.0.0.1:4317', 'file:///tmp/traces'])(
    'rejects %j as a configuration error when the recorder is created',
    (endpoint) => {
      expect(() => createOtelTraceRecorder({ endpoint })).toThrow(ConfigurationError);
    },
  );
});
