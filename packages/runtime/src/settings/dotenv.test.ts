import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDotenv, parseDotenv } from './dotenv.js';

function parseError(text: string): ConfigurationError {
  try {
    parseDotenv(text, '/repo/.env');
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error('expected parseDotenv to throw');
}

describe('parseDotenv', () => {
  it('reads KEY=VALUE lines and trims keys and values', () => {
    expect(parseDotenv('  A = one  \nB=two', '.env')).toEqual({ A: 'one', B: 'two' });
  });

  it('ignores blank lines and # comment lines, even indented ones', () => {
    expect(parseDotenv('\n# a comment\n   # indented\n\nA=1\n   \n', '.env')).toEqual({ A: '1' });
  });

  it('drops an optional leading export', () => {
    expect(parseDotenv('export A=1\nexport   B=2', '.env')).toEqual({ A: '1', B: '2' });
  });

  it('keeps a key literally named export', () => {
    expect(parseDotenv('export=1', '.env')).toEqual({ export: '1' });
  });

  it('removes matching single or double quotes and keeps the spaces inside them', () => {
    expect(parseDotenv(`A="  spaced  "\nB='single'\nC=""`, '.env')).toEqual({
      A: '  spaced  ',
      B: 'single',
      C: '',
    });
  });

  it('leaves mismatched or one-sided quotes in place', () => {
    expect(parseDotenv(`A="open\nB='mixed"\nC="`, '.env')).toEqual({
      A: '"open',
      B: `'mixed"`,
      C: '"',
    });
  });

  it('turns \\n into a newline only inside double quotes', () => {
    expect(parseDotenv(`A="line1\\nline2"\nB='line1\\nline2'\nC=line1\\nline2`, '.env')).toEqual({
      A: 'line1\nline2',
      B: 'line1\\nline2',
      C: 'line1\\nline2',
    });
  });

  it('understands escaped quotes and backslashes inside double quotes', () => {
    expect(parseDotenv(String.raw`A="say \"hi\" \\n"`, '.env')).toEqual({ A: 'say "hi" \\n' });
  });

  it('does not interpolate variables or strip inline comments', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal ${} is what is tested
    const braced = '${USER}';
    expect(parseDotenv(`A=$HOME/${braced}\nB=p@ss#word # not a comment`, '.env')).toEqual({
      A: `$HOME/${braced}`,
      B: 'p@ss#word # not a comment',
    });
  });

  it('keeps everything after the first = as the value', () => {
    expect(parseDotenv('A=b=c==', '.env')).toEqual({ A: 'b=c==' });
  });

  it('lets a later line for the same key win', () => {
    expect(parseDotenv('A=1\nA=2', '.env')).toEqual({ A: '2' });
  });

  it('accepts CRLF line endings and a byte order mark', () => {
    expect(parseDotenv('\uFEFFA=1\r\nB=2\r\n', '.env')).toEqual({ A: '1', B: '2' });
  });

  it('treats __proto__ as an ordinary key', () => {
    const parsed = parseDotenv('__proto__=x', '.env');
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('rejects a line without = naming the line number and the file', () => {
    const error = parseError('A=1\n\nJUST_A_WORD');
    expect(error.message).toBe(
      'Invalid .env line 3 in /repo/.env: expected KEY=VALUE, but the line has no "=".',
    );
    expect(error.exitCode).toBe(78);
  });

  it('rejects an empty key', () => {
    expect(parseError('# c\n = value').message).toBe(
      'Invalid .env line 2 in /repo/.env: expected KEY=VALUE, but the key before "=" is empty.',
    );
  });

  it('rejects an invalid variable name and names it', () => {
    expect(parseError('1ABC=x').message).toContain(
      'Invalid .env line 1 in /repo/.env: expected KEY=VALUE, but "1ABC" is not a valid variable name',
    );
    expect(parseError('MY-KEY=x').message).toContain('"MY-KEY" is not a valid variable name');
    expect(parseError('A B=x').message).toContain('"A B" is not a valid variable name');
  });

  it('never echoes a bad line, which may hold a secret', () => {
    expect(parseError('sk-secret-value-1234').message).not.toContain('sk-secret');
  });
});

describe('loadDotenv', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tiny-claw-dotenv-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('returns an empty map when the file does not exist', async () => {
    await expect(loadDotenv(join(dir, '.env'))).resolves.toEqual({});
    await expect(loadDotenv(join(dir, 'missing-dir', '.env'))).resolves.toEqual({});
  });

  it('parses an existing file and labels errors with its path', async () => {
    const good = join(dir, '.env');
    await writeFile(good, 'export TINY_CLAW_MAX_TOKENS="2048"\n');
    await expect(loadDotenv(good)).resolves.toEqual({ TINY_CLAW_MAX_TOKENS: '2048' });

    const bad = join(dir, 'bad.env');
    await writeFile(bad, 'oops\n');
    await expect(loadDotenv(bad)).rejects.toThrow(`Invalid .env line 1 in ${bad}`);
  });

  it('reports a path that cannot be read as a ConfigurationError', async () => {
    const directory = join(dir, 'is-a-dir');
    await mkdir(directory);
    await expect(loadDotenv(directory)).rejects.toBeInstanceOf(ConfigurationError);
  });
});
