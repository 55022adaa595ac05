import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
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

  it('removes matching single, double or backtick quotes and keeps the spaces inside them', () => {
    expect(parseDotenv('A="  spaced  "\nB=\'single\'\nC=""\nD=`tick`\nE =  "x"  ', '.env')).toEqual(
      {
        A: '  spaced  ',
        B: 'single',
        C: '',
        D: 'tick',
        E: 'x',
      },
    );
  });

  it('turns \\n into a newline only inside double quotes, and knows no other escape', () => {
    expect(
      parseDotenv(
        'A="line1\\nline2"\nB=\'line1\\nline2\'\nC=line1\\nline2\nD=`a\\nb`\nE="tab\\there"',
        '.env',
      ),
    ).toEqual({
      A: 'line1\nline2',
      B: 'line1\\nline2',
      C: 'line1\\nline2',
      D: 'a\\nb',
      E: 'tab\\there',
    });
  });

  it('keeps line breaks of a quoted value that spans lines, in any kind of quote', () => {
    const text = 'A="first\n  second  \nthird"\nB=\'x\r\ny\'\nC=`p\n\nq` # note\nD=after';
    expect(parseDotenv(text, '.env')).toEqual({
      A: 'first\n  second  \nthird',
      B: 'x\ny',
      C: 'p\n\nq',
      D: 'after',
    });
  });

  it('reads a # after a space, or opening an unquoted value, as a comment', () => {
    // As in Node, only spaces are trimmed from an unquoted value, so the tab before # stays.
    expect(
      parseDotenv('A=value # note\nB=two words\t# tab\nC=# only a comment\nD= #', '.env'),
    ).toEqual({ A: 'value', B: 'two words\t', C: '', D: '' });
  });

  it('keeps # and spaces inside quotes, and allows a comment after the closing quote', () => {
    expect(
      parseDotenv('A="p@ss#word # kept"  # note\nB=\'#hash\'#note\nC=`a # b`', '.env'),
    ).toEqual({ A: 'p@ss#word # kept', B: '#hash', C: 'a # b' });
  });

  it('keeps a quote that does not open the value', () => {
    expect(parseDotenv(`A=say "hi"\nB=it's`, '.env')).toEqual({ A: 'say "hi"', B: "it's" });
  });

  it('does not interpolate variables', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal ${} is what is tested
    const braced = '${USER}';
    expect(parseDotenv(`A=$HOME/${braced}\nB="${braced}"`, '.env')).toEqual({
      A: `$HOME/${braced}`,
      B: braced,
    });
  });

  it('gives the values of node:util parseEnv for a file both read the same way', () => {
    const text = [
      '# settings',
      'PLAIN=value',
      'SPACED =  two words  ',
      'COMMENTED=value # note',
      'EMPTY=',
      'DOUBLE="a\\nb # kept"',
      "SINGLE='a\\nb'",
      'TICK=`say "hi"`',
      'MULTI="line one',
      '  line two"',
      'EQUALS=b=c==',
      'PLAIN=later wins',
    ].join('\n');
    expect({ ...parseDotenv(text, '.env') }).toEqual(parseEnv(text));
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
    expect(error.code).toBe('configuration');
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

  it('rejects a quoted value that is never closed at the line where the quote opens', () => {
    const error = parseError('A=1\nTOKEN="sk-secret-1234\nB=2\n');
    expect(error.message).toBe(
      'Invalid .env line 2 in /repo/.env: the value of TOKEN opens a double quote (") that is ' +
        'never closed. Add the closing quote (a quoted value may span several lines), or wrap the ' +
        'value in a different kind of quote if this one belongs to it.',
    );
    expect(error.code).toBe('configuration');
    expect(error.message).not.toContain('sk-secret');
    expect(parseError("A='open").message).toContain(
      'line 1 in /repo/.env: the value of A opens a single quote',
    );
    expect(parseError('\n\nA=`').message).toContain(
      'line 3 in /repo/.env: the value of A opens a backtick',
    );
  });

  it('rejects text after a closing quote, which is how an escaped quote would be misread', () => {
    const escaped = parseError(String.raw`TOKEN="sk-se\"cret"`);
    expect(escaped.message).toContain(
      'Invalid .env line 1 in /repo/.env: text follows the closing double quote (") of the value of TOKEN (opened on line 1)',
    );
    expect(escaped.message).toContain('Quotes cannot be escaped');
    expect(escaped.message).not.toContain('sk-se');
    // A forgotten closing quote pairs with the next quote in the file and is caught there.
    expect(parseError('A="forgot\nB="x"\n').message).toContain(
      'Invalid .env line 2 in /repo/.env: text follows the closing double quote (") of the value of A (opened on line 1)',
    );
  });

  it('rejects an unquoted # right after other text instead of cutting the value there', () => {
    const error = parseError('A=1\nPASSWORD=p@ss#word');
    expect(error.message).toBe(
      'Invalid .env line 2 in /repo/.env: the unquoted value of PASSWORD has a "#" right after ' +
        'other text, which would start a comment and cut the value there. Quote the value to keep ' +
        'the "#", or put a space before it if it starts a comment.',
    );
    expect(error.message).not.toContain('p@ss');
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
