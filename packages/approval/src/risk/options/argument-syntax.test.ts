import { describe, expect, it } from 'vitest';
import { literalWord, type ShellWord } from '../shell/shell-word.js';
import { type ArgumentSyntax, parseArguments } from './argument-syntax.js';
import { COREUTILS_SYNTAXES } from './coreutils-syntaxes.js';
import { optionTable } from './option-table.js';
import { OWN_PARSER_SYNTAXES } from './own-parser-syntaxes.js';
import { DYNAMIC_OPTIONS, type ParsedArguments } from './parsed-arguments.js';
import { TEXT_TOOL_SYNTAXES } from './text-tool-syntaxes.js';

function words(line: string): ShellWord[] {
  return line === '' ? [] : line.split(' ').map(literalWord);
}

/** A word known only at run time, with the literal text before its expansion. */
function dynamic(text: string, prefix: string): ShellWord {
  return { text, value: null, prefix, expands: false };
}

function summary(parsed: ParsedArguments) {
  return {
    options: parsed.options.map((option) =>
      option.value === null ? option.def.id : `${option.def.id}=${option.value.value}`,
    ),
    operands: parsed.operands.map((operand) => operand.text),
    problems: parsed.problems,
  };
}

const SORT = COREUTILS_SYNTAXES.sort as ArgumentSyntax;

function sort(args: ShellWord[]) {
  return summary(parseArguments('sort', SORT, args));
}

describe('getopt_long programs', () => {
  it('give a required value after = or in the next word, an optional one only after =', () => {
    expect(sort(words('--outp=x in'))).toEqual({
      options: ['-o=x'],
      operands: ['in'],
      problems: [],
    });
    expect(sort(words('--outp x in')).options).toEqual(['-o=x']);
    const grep = TEXT_TOOL_SYNTAXES.grep as ArgumentSyntax;
    expect(summary(parseArguments('grep', grep, words('--col always x'))).operands).toEqual([
      'always',
      'x',
    ]);
  });

  it('read a cluster of short options up to the first that takes a value', () => {
    expect(sort(words('-rno/tmp/x in')).options).toEqual(['-r', '-n', '-o=/tmp/x']);
    expect(sort(words('-rno /tmp/x in')).options).toEqual(['-r', '-n', '-o=/tmp/x']);
  });

  it('read options after operands until --, and none after it', () => {
    expect(sort(words('in -o x'))).toEqual({ options: ['-o=x'], operands: ['in'], problems: [] });
    expect(sort(words('in -- -o x')).operands).toEqual(['in', '-o', 'x']);
  });

  it('name an unknown, an ambiguous or a valueless-given option as a problem', () => {
    expect(sort(words('--outpt=x in')).problems).toEqual([
      'uses an option sort does not have (--outpt)',
    ]);
    expect(sort(words('--s in')).problems[0]).toMatch(
      /^uses an abbreviated option that could mean .*--sort.* \(--s\)$/,
    );
    expect(sort(words('--reverse=1 in')).problems).toEqual([
      'gives a value to an option that takes none (--reverse=1)',
    ]);
  });

  it('goes on with a cluster after an unknown letter, as getopt does', () => {
    expect(sort(words('-Qo x in'))).toEqual({
      options: ['-o=x'],
      operands: ['in'],
      problems: ['uses an option sort does not have (-Q)'],
    });
  });

  it('resolves an option whose value is computed at run time, and asks for one whose name is', () => {
    expect(sort([dynamic('--outp=$(x)', '--outp='), literalWord('in')]).options).toEqual([
      '-o=null',
    ]);
    expect(sort([dynamic('--$(x)', '--'), literalWord('in')]).problems).toEqual([
      'uses an option computed at run time (--$(x))',
    ]);
    expect(sort([dynamic('-r$x', '-r')]).problems).toEqual([
      'uses an option computed at run time (-r$x)',
    ]);
  });

  it('asks for a word computed at run time only when the program has an option that matters', () => {
    expect(sort([dynamic('"$x"', ''), literalWord('in')]).problems).toEqual([DYNAMIC_OPTIONS]);
    const cat = COREUTILS_SYNTAXES.cat as ArgumentSyntax;
    expect(summary(parseArguments('cat', cat, [dynamic('"$x"', '')]))).toEqual({
      options: [],
      operands: ['"$x"'],
      problems: [],
    });
  });

  it('stop at the first operand when the program says so, and take negative numbers for seq', () => {
    const basename = COREUTILS_SYNTAXES.basename as ArgumentSyntax;
    expect(summary(parseArguments('basename', basename, words('-a x -s')))).toEqual({
      options: ['-a'],
      operands: ['x', '-s'],
      problems: [],
    });
    const seq = COREUTILS_SYNTAXES.seq as ArgumentSyntax;
    expect(summary(parseArguments('seq', seq, words('-w -5 -1 10'))).operands).toEqual([
      '-5',
      '-1',
      '10',
    ]);
  });

  it('read the old forms head, tail, sort and uniq still take', () => {
    const head = COREUTILS_SYNTAXES.head as ArgumentSyntax;
    expect(summary(parseArguments('head', head, words('-5c .env'))).operands).toEqual(['.env']);
    const tail = COREUTILS_SYNTAXES.tail as ArgumentSyntax;
    expect(summary(parseArguments('tail', tail, words('-20f log'))).operands).toEqual(['log']);
    expect(sort(words('+1 -2 in'))).toEqual({ options: [], operands: ['in'], problems: [] });
    expect(sort(words('+1 in')).operands).toEqual(['+1', 'in']);
    const uniq = COREUTILS_SYNTAXES.uniq as ArgumentSyntax;
    expect(summary(parseArguments('uniq', uniq, words('+3 in out'))).operands).toEqual([
      'in',
      'out',
    ]);
  });

  it('ask for @file arguments, which binutils replaces with options read from the file', () => {
    const strings = TEXT_TOOL_SYNTAXES.strings as ArgumentSyntax;
    expect(parseArguments('strings', strings, words('@opts a.out')).problems).toEqual([
      'reads more arguments from a file, which could hold any option (strings @opts)',
    ]);
  });
});

describe('programs with their own parsers', () => {
  it('rg takes long options by exact name only, and -C=2 as -C 2', () => {
    const rg = OWN_PARSER_SYNTAXES.rg as ArgumentSyntax;
    expect(parseArguments('rg', rg, words('--hidd x')).problems).toEqual([
      'uses an option rg does not have (--hidd)',
    ]);
    expect(summary(parseArguments('rg', rg, words('-C=2 x'))).options).toEqual(['-C=2']);
  });

  it('tree takes a value-taking long option at any word it starts, and values from next words', () => {
    const tree = OWN_PARSER_SYNTAXES.tree as ArgumentSyntax;
    expect(summary(parseArguments('tree', tree, words('--hintrofoo /etc/passwd .')))).toEqual({
      options: ['--hintro=/etc/passwd'],
      operands: ['.'],
      problems: [],
    });
    expect(summary(parseArguments('tree', tree, words('-Lo 2 out .'))).options).toEqual([
      '-L=2',
      '-o=out',
    ]);
    expect(parseArguments('tree', tree, words('--du=x')).problems).toEqual([
      'uses an option tree does not have (--du=x)',
    ]);
  });

  it('xxd knows an option by its first letter and takes every word from the first operand on as operands', () => {
    const xxd = OWN_PARSER_SYNTAXES.xxd as ArgumentSyntax;
    expect(summary(parseArguments('xxd', xxd, words('-autoskip -cols 8 -g2 in -ps')))).toEqual({
      options: ['-a', '-c=8', '-g=2'],
      operands: ['in', '-ps'],
      problems: [],
    });
    expect(summary(parseArguments('xxd', xxd, words('-capitalize -c8 in'))).options).toEqual([
      '-C',
      '-c=8',
    ]);
  });

  it('bash builtins read options only before the first operand, by exact spelling', () => {
    const printf = OWN_PARSER_SYNTAXES.printf as ArgumentSyntax;
    expect(summary(parseArguments('printf', printf, words('%s -v x')))).toEqual({
      options: [],
      operands: ['%s', '-v', 'x'],
      problems: [],
    });
    expect(summary(parseArguments('printf', printf, words('-vx %s'))).options).toEqual(['-v=x']);
  });

  it('a program without options takes every word as an operand', () => {
    expect(parseArguments('echo', { kind: 'text' }, words('--outp=x -n')).operands).toHaveLength(2);
  });
});

describe('git subcommands', () => {
  const syntax: ArgumentSyntax = {
    kind: 'git',
    layers: [
      { table: optionTable(['--contents=', '--color-lines']), abbreviations: true },
      { table: optionTable(['--reverse', '--color[=]']), abbreviations: false },
    ],
  };

  it('try each layer in turn: abbreviations in a layer that takes them, exact names after', () => {
    // `--color` abbreviates the first layer's `--color-lines` before the second layer is asked.
    const parsed = parseArguments('git blame', syntax, words('--cont x --reverse --color f'));
    expect(summary(parsed)).toEqual({
      options: ['--contents=x', '--reverse', '--color-lines'],
      operands: ['f'],
      problems: [],
    });
    expect(parseArguments('git blame', syntax, words('--rev f')).problems).toEqual([
      'uses an option git blame does not have (--rev)',
    ]);
  });
});
