import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors.js';
import {
  normalizeSessionPart,
  sessionKey,
  validateSessionKey,
  validateSessionName,
  workdirHash,
} from './session-key.js';

describe('normalizeSessionPart', () => {
  it.each([
    ['Debug Login', 'debug-login'],
    ['  padded  ', 'padded'],
    ['a/b\\c.d', 'a-b-c-d'],
    ['../../etc', 'etc'],
    ['keep_under-score', 'keep_under-score'],
    ['Ünïcødé 名前', 'ünïcødé-名前'],
    ['chat:oc_AbC', 'chat-oc_abc'],
    ['--x--', 'x'],
  ])('keeps letters, digits, - and _ and maps the rest to -: %j → %j', (input, expected) => {
    expect(normalizeSessionPart(input)).toBe(expected);
  });

  it.each(['', '   ', '***', '/..'])(
    'falls back to "default" when nothing is left: %j',
    (input) => {
      expect(normalizeSessionPart(input)).toBe('default');
    },
  );

  it('treats composed and decomposed accents as the same name', () => {
    expect(normalizeSessionPart('cafe\u0301')).toBe(normalizeSessionPart('caf\u00e9'));
  });
});

describe('workdirHash and sessionKey', () => {
  it('is the first 12 hex chars of the sha256 of the absolute workdir', () => {
    const expected = createHash('sha256').update('/home/me/repo').digest('hex').slice(0, 12);
    expect(workdirHash('/home/me/repo')).toBe(expected);
    expect(workdirHash('/home/me/repo/sub/..')).toBe(expected);
  });

  it('builds <source>-<hash12>-<id> from normalized parts', () => {
    expect(sessionKey('cli', '/home/me/repo', 'Debug Login')).toBe(
      `cli-${workdirHash('/home/me/repo')}-debug-login`,
    );
  });

  it('gives different keys for different workdirs', () => {
    expect(sessionKey('cli', '/a', 'default')).not.toBe(sessionKey('cli', '/b', 'default'));
  });
});

describe('validateSessionName', () => {
  it('returns a valid name unchanged', () => {
    expect(validateSessionName('Debug Login')).toBe('Debug Login');
    expect(validateSessionName('x'.repeat(100))).toBe('x'.repeat(100));
  });

  it('rejects a name over 100 characters, naming the rule', () => {
    expect(() => validateSessionName('x'.repeat(101))).toThrow(ConfigurationError);
    expect(() => validateSessionName('x'.repeat(101))).toThrow(/at most 100 characters/);
  });

  it('counts characters, not UTF-16 units, against the 100 limit', () => {
    expect(validateSessionName('😀'.repeat(100))).toBe('😀'.repeat(100));
  });

  it.each(['a\nb', 'tab\there', 'esc\u001b[31m', 'del\u007f'])(
    'rejects control characters, showing them escaped: %j',
    (name) => {
      expect(() => validateSessionName(name)).toThrow(ConfigurationError);
      expect(() => validateSessionName(name)).toThrow(JSON.stringify(name));
      expect(() => validateSessionName(name)).toThrow(/control characters/);
    },
  );
});

describe('validateSessionKey', () => {
  it('accepts generated keys, including Unicode ones', () => {
    const key = sessionKey('cli', '/repo', '名前 Ünï');
    expect(validateSessionKey(key)).toBe(key);
  });

  it.each(['', '..', '../etc', 'a/b', 'a\\b', 'a.b', 'Cli-x', 'a b', 'a\u0000b'])(
    'rejects anything that could leave sessions/ or collide: %j',
    (key) => {
      expect(() => validateSessionKey(key)).toThrow(ConfigurationError);
    },
  );

  it('rejects a key longer than a file name may be', () => {
    expect(() => validateSessionKey('名'.repeat(100))).toThrow(/255 bytes/);
  });
});
