import type { ArgumentSyntax } from './options/argument-syntax.js';
import { COREUTILS_SYNTAXES } from './options/coreutils-syntaxes.js';
import { gitBranchVeto } from './options/git-branch-syntax.js';
import { GIT_SUBCOMMAND_SYNTAXES } from './options/git-subcommand-syntaxes.js';
import { OWN_PARSER_SYNTAXES } from './options/own-parser-syntaxes.js';
import { DYNAMIC_OPTIONS, type ParsedArguments } from './options/parsed-arguments.js';
import { TEXT_TOOL_SYNTAXES } from './options/text-tool-syntaxes.js';
import type { ShellWord } from './shell/shell-word.js';

/**
 * How a command on the read-only list is checked.
 *
 * @example
 * const cat: ReadOnlySpec = { program: 'cat', operands: 'contents', syntax: COREUTILS_SYNTAXES.cat };
 */
export interface ReadOnlySpec {
  /** The program as named in reasons (`sort`, `git log`). */
  readonly program: string;
  /**
   * What its operands are: files whose `contents` it prints (checked for secrets and for
   * leaving the workdir), paths whose `names` it lists (checked for leaving the workdir), or
   * `none` (text, not paths).
   */
  readonly operands: 'contents' | 'names' | 'none';
  /** How it parses its command line; its option table says what each option does. */
  readonly syntax: ArgumentSyntax;
  /** The first operand is a pattern or script, unless an option supplied one. */
  readonly patternFirst?: boolean;
  /** Why this particular use is not read-only, or `null` when it is. */
  readonly veto?: (parsed: ParsedArguments, args: readonly ShellWord[]) => string | null;
  /** Files this use writes, checked like any write (refused in .git or outside the workdir). */
  readonly writes?: (parsed: ParsedArguments) => readonly ShellWord[];
}

type Veto = NonNullable<ReadOnlySpec['veto']>;

function firstVeto(...vetoes: Veto[]): Veto {
  return (parsed, args) => {
    for (const veto of vetoes) {
      const reason = veto(parsed, args);
      if (reason !== null) return reason;
    }
    return null;
  };
}

function given(parsed: ParsedArguments, id: string): boolean {
  return parsed.options.some((option) => option.def.id === id);
}

// Every script part must be a print, delete, quit, line-number or plain substitution command with
// an optional line or regex address; anything else (`e`, `w`, `r`, `s///e`, `s///w file`) is out.
const SED_ADDRESS = String.raw`(?:\d+|\$|/[^/]*/)(?:,(?:\d+|\$|/[^/]*/))?`;
const SED_COMMAND = '(?:[pdq=l]|s/[^/]*/[^/]*/[gpiI0-9]*)';
const SAFE_SED_PART = new RegExp(`^(?:${SED_ADDRESS})?\\s*${SED_COMMAND}$`);

function sedScripts(parsed: ParsedArguments): (string | null)[] {
  const expressions = parsed.options.filter((option) => option.def.id === '-e');
  if (expressions.length > 0) return expressions.map((option) => option.value?.value ?? null);
  return [parsed.operands[0]?.value ?? null];
}

function sedVeto(parsed: ParsedArguments): string | null {
  if (given(parsed, '-i') || given(parsed, '-f')) return null;
  const safe = sedScripts(parsed).every((script) =>
    script
      ?.split(/[;\n]/)
      .map((part) => part.trim())
      .every((part) => part === '' || SAFE_SED_PART.test(part)),
  );
  return safe
    ? null
    : 'runs a sed script that may run commands or write files (the e, w and r commands)';
}

// With -i every file operand is rewritten.
function sedWrites(parsed: ParsedArguments): readonly ShellWord[] {
  if (!given(parsed, '-i')) return [];
  const scripted = given(parsed, '-e') || given(parsed, '-f');
  return parsed.operands.slice(scripted ? 0 : 1);
}

// A second operand is the file it writes (`uniq in out`, `xxd in out`).
function outputOperand(reason: string): Pick<ReadOnlySpec, 'veto' | 'writes'> {
  return {
    veto: (parsed) => (parsed.operands.length > 1 ? reason : null),
    writes: (parsed) => parsed.operands.slice(1, 2),
  };
}

// For commands whose operands are not otherwise checked: any word known only at run time could
// be what makes them unsafe (`tree -$(echo o) /etc/x`, a date to set the clock to).
function dynamicVeto(_parsed: ParsedArguments, args: readonly ShellWord[]): string | null {
  return args.some((arg) => arg.value === null) ? DYNAMIC_OPTIONS : null;
}

// `date MMDDhhmm` sets the clock like `date -s`; only a `+FORMAT` operand just prints.
function dateVeto(parsed: ParsedArguments): string | null {
  return parsed.operands.some((operand) => !(operand.value ?? '').startsWith('+'))
    ? 'sets the system clock (date MMDDhhmm)'
    : null;
}

// test and [ have no options, but `-v` and `-R` evaluate a variable subscript.
function testVeto(_parsed: ParsedArguments, args: readonly ShellWord[]): string | null {
  if (args.some((arg) => arg.value === '-v' || arg.value === '-R'))
    return 'evaluates a variable subscript, which can run commands (test -v)';
  return dynamicVeto(_parsed, args);
}

// `command -v name` only looks the name up; `command name` runs it.
function commandVeto(parsed: ParsedArguments): string | null {
  return parsed.operands.length === 0 || given(parsed, '-v') || given(parsed, '-V')
    ? null
    : 'runs a command the analysis could not unwrap';
}

// Options come before the format; a format computed at run time could be `-v`.
function printfVeto(_parsed: ParsedArguments, args: readonly ShellWord[]): string | null {
  return args[0] !== undefined && args[0].value === null ? DYNAMIC_OPTIONS : null;
}

const SYNTAXES: Readonly<Record<string, ArgumentSyntax>> = {
  ...COREUTILS_SYNTAXES,
  ...TEXT_TOOL_SYNTAXES,
  ...OWN_PARSER_SYNTAXES,
};

type Check = Omit<ReadOnlySpec, 'program' | 'syntax'>;

// What is checked for each program beyond its options.
const CHECKS: Readonly<Record<string, Check>> = {
  ls: { operands: 'names' },
  tree: { operands: 'names', veto: dynamicVeto },
  cat: { operands: 'contents' },
  head: { operands: 'contents' },
  tail: { operands: 'contents' },
  wc: { operands: 'contents' },
  nl: { operands: 'contents' },
  tac: { operands: 'contents' },
  rev: { operands: 'contents' },
  grep: { operands: 'contents', patternFirst: true },
  rg: { operands: 'contents', patternFirst: true },
  sed: { operands: 'contents', patternFirst: true, veto: sedVeto, writes: sedWrites },
  echo: { operands: 'none' },
  printf: { operands: 'none', veto: printfVeto },
  pwd: { operands: 'none' },
  true: { operands: 'none' },
  exit: { operands: 'none' },
  false: { operands: 'none' },
  ':': { operands: 'none' },
  test: { operands: 'none', veto: testVeto },
  '[': { operands: 'none', veto: testVeto },
  sleep: { operands: 'none' },
  exec: { operands: 'none' },
  basename: { operands: 'none' },
  dirname: { operands: 'none' },
  realpath: { operands: 'none' },
  readlink: { operands: 'none' },
  which: { operands: 'none' },
  type: { operands: 'none' },
  command: { operands: 'none', veto: firstVeto(dynamicVeto, commandVeto) },
  whoami: { operands: 'none' },
  id: { operands: 'none' },
  uname: { operands: 'none' },
  nproc: { operands: 'none' },
  seq: { operands: 'none' },
  expr: { operands: 'none' },
  date: { operands: 'none', veto: firstVeto(dynamicVeto, dateVeto) },
  stat: { operands: 'names' },
  file: { operands: 'names', veto: dynamicVeto },
  du: { operands: 'names' },
  df: { operands: 'names' },
  diff: { operands: 'contents' },
  cmp: { operands: 'contents' },
  comm: { operands: 'contents' },
  sort: { operands: 'contents' },
  uniq: {
    operands: 'contents',
    ...outputOperand('writes its output to the second file named (uniq in out)'),
  },
  cut: { operands: 'contents' },
  tr: { operands: 'none' },
  paste: { operands: 'contents' },
  column: { operands: 'contents' },
  fold: { operands: 'contents' },
  md5sum: { operands: 'contents' },
  sha1sum: { operands: 'contents' },
  sha256sum: { operands: 'contents' },
  sha512sum: { operands: 'contents' },
  cksum: { operands: 'contents' },
  base64: { operands: 'contents' },
  xxd: { operands: 'contents', ...outputOperand('writes to the second file named (xxd in out)') },
  od: { operands: 'contents' },
  hexdump: { operands: 'contents' },
  strings: { operands: 'contents' },
};

function specs(
  prefix: string,
  checks: Readonly<Record<string, Check>>,
  syntaxes: Readonly<Record<string, ArgumentSyntax>>,
): Record<string, ReadOnlySpec> {
  return Object.fromEntries(
    Object.entries(checks).map(([name, check]) => {
      const syntax = syntaxes[name];
      if (syntax === undefined) throw new Error(`no option table for ${prefix}${name}`);
      return [name, { program: `${prefix}${name}`, syntax, ...check }];
    }),
  );
}

/**
 * Commands known to only read, and how each is checked. Anything not listed needs approval.
 *
 * @example
 * READ_ONLY_COMMANDS.cat?.operands; // 'contents'
 */
export const READ_ONLY_COMMANDS: Readonly<Record<string, ReadOnlySpec>> = specs(
  '',
  CHECKS,
  SYNTAXES,
);

/**
 * `git` subcommands that only read, checked like the commands above.
 *
 * @example
 * READ_ONLY_GIT_SUBCOMMANDS.log?.operands; // 'contents'
 */
export const READ_ONLY_GIT_SUBCOMMANDS: Readonly<Record<string, ReadOnlySpec>> = specs(
  'git ',
  {
    status: { operands: 'none' },
    log: { operands: 'contents' },
    diff: { operands: 'contents' },
    show: { operands: 'none' },
    blame: { operands: 'contents' },
    'ls-files': { operands: 'names' },
    'rev-parse': { operands: 'none' },
    describe: { operands: 'none' },
    shortlog: { operands: 'none' },
    'merge-base': { operands: 'none' },
    branch: { operands: 'none', veto: gitBranchVeto },
  },
  GIT_SUBCOMMAND_SYNTAXES,
);
