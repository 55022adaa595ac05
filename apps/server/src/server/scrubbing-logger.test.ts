import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../__fixtures__/harness.js';
import { scrubbingLogger } from './scrubbing-logger.js';

const SECRET = 'app-secret-Zq8v2LkP9wXr4TnB';

describe('scrubbingLogger', () => {
  it.each(['debug', 'info', 'warn', 'error'] as const)(
    'keeps a known secret out of the message and every text field at %s, other values as they are',
    (level) => {
      const inner = memoryLogger();
      scrubbingLogger(inner, [SECRET])[level](`token request with ${SECRET} failed`, {
        detail: `secret=${SECRET}`,
        setting: 'FEISHU_APP_SECRET',
        status: 400,
        retried: false,
        reason: null,
        cost_usd: undefined,
      });
      expect(JSON.stringify(inner.records)).not.toContain(SECRET);
      expect(inner.records[0]?.level).toBe(level);
      expect(inner.records[0]?.fields).toMatchObject({
        setting: 'FEISHU_APP_SECRET',
        status: 400,
        retried: false,
        reason: null,
      });
    },
  );

  it('passes a line without fields on without any', () => {
    const inner = memoryLogger();
    scrubbingLogger(inner, [SECRET]).info('plain');
    expect(inner.records).toEqual([{ level: 'info', message: 'plain', fields: {} }]);
  });
});
