import { hasOption, type OptionSpec, type SplitArguments } from './shell/option-scan.js';
import type { ShellWord } from './shell/shell-word.js';

/**
 * How a command on the read-only list is checked.
 *
 * @example
 * const cat: ReadOnlySpec = { operands: 'contents' };
 */
export interface ReadOnlySpec extends OptionSpec {
  /**
   * What its operands are: files whose `contents` it prints (checked for secrets and for
   * leaving the workdir), paths whose `names` it lists (checked for leaving the workdir), or
   * `none` (text, not paths).
   */
  readonly operands: 'contents' | 'names' | 'none';
  /** The first operand is a pattern or script, unless one of these options supplied it. */
  readonly patternUnless?: readonly string[];
  /** Options whose value names a file it reads (`grep -f patterns.txt`), checked like operands. */
  readonly reads?: readonly string[];
  /** Why this particular use is not read-only, or `null` when it is. */
  readonly veto?: (split: SplitArguments, args: readonly ShellWord[]) => string | null;
}

function optionVeto(
  names: readonly string[],
  reason: string,
): (split: SplitArguments) => string | null {
  return (split) => (hasOption(split.options, names) ? reason : null);
}

function firstVeto(
  ...vetoes: ((split: SplitArguments, args: readonly ShellWord[]) => string | null)[]
): (split: SplitArguments, args: readonly ShellWord[]) => string | null {
  return (split, args) => {
    for (const veto of vetoes) {
      const reason = veto(split, args);
      if (reason !== null) return reason;
    }
    return null;
  };
}

// Every script part must be a print, delete, quit, line-number or plain substitution command with
// an optional line or regex address; anything else (`e`, `w`, `r`, `s///e`, `s///w file`) is out.
const SED_ADDRESS = String.raw`(?:\d+|\$|/[^/]*/)(?:,(?:\d+|\$|/[^/]*/))?`;
const SED_COMMAND = '(?:[pdq=l]|s/[^/]*/[^/]*/[gpiI0-9]*)';
const SAFE_SED_PART = new RegExp(`^(?:${SED_ADDRESS})?\\s*${SED_COMMAND}$`);

function sedScripts(split: SplitArguments): (string | null)[] {
  const given = split.options.filter(
    (option) => option.name === '-e' || option.name === '--expression',
  );
  if (given.length > 0) return given.map((option) => option.value);
  return [split.operands[0]?.value ?? null];
}

function sedVeto(split: SplitArguments): string | null {
  if (hasOption(split.options, ['-i', '--in-place'])) return 'edits files in place (sed -i)';
  if (hasOption(split.options, ['-f', '--file'])) return 'runs a sed script read from a file';
  const safe = sedScripts(split).every((script) =>
    script
      ?.split(/[;\n]/)
      .map((part) => part.trim())
      .every((part) => part === '' || SAFE_SED_PART.test(part)),
  );
  return safe
    ? null
    : 'runs a sed script that may run commands or write files (the e, w and r commands)';
}

const GREP_RECURSIVE =
  'searches directories recursively, which reads hidden files such as .env too (rg skips them)';

function grepVeto(split: SplitArguments): string | null {
  if (hasOption(split.options, ['-r', '-R', '--recursive', '--dereference-recursive']))
    return GREP_RECURSIVE;
  const directories = split.options.find(
    (option) => option.name === '-d' || option.name === '--directories',
  );
  return directories?.value === 'recurse' ? GREP_RECURSIVE : null;
}

const rgVeto = firstVeto(
  optionVeto(
    ['--pre', '--pre-glob', '--hostname-bin'],
    'runs a helper program on the files it searches (rg --pre)',
  ),
  optionVeto(
    ['-z', '--search-zip'],
    'runs decompression programs on the files it searches (rg -z)',
  ),
  optionVeto(
    ['--hidden', '-.', '-u', '--unrestricted'],
    'searches hidden or ignored files such as .env (rg --hidden, -u)',
  ),
  (split) =>
    split.options.some((option) => option.name.startsWith('--no-ignore'))
      ? 'searches ignored files such as .env (rg --no-ignore)'
      : null,
  optionVeto(
    ['-L', '--follow'],
    'follows symbolic links, which may lead outside the workdir (rg -L)',
  ),
);

function operandCountVeto(max: number, reason: string): (split: SplitArguments) => string | null {
  return (split) => (split.operands.length > max ? reason : null);
}

const GIT_FREE_TEXT: ReadOnlySpec = { operands: 'none' };

const DYNAMIC_OPTIONS =
  'has arguments computed at run time, which could turn on an option that writes or runs code';

// For commands whose operands are not otherwise checked: a word known only at run time could be
// the one option that makes them unsafe (`tree -$(echo o) /etc/x`).
function dynamicVeto(_split: SplitArguments, args: readonly ShellWord[]): string | null {
  return args.some((arg) => arg.value === null) ? DYNAMIC_OPTIONS : null;
}

const TEST: ReadOnlySpec = {
  operands: 'none',
  veto: firstVeto(
    optionVeto(['-v', '-R'], 'evaluates a variable subscript, which can run commands (test -v)'),
    dynamicVeto,
  ),
};

/**
 * Commands known to only read, and how each is checked. Anything not listed needs approval.
 *
 * @example
 * READ_ONLY_COMMANDS.cat?.operands; // 'contents'
 */
export const READ_ONLY_COMMANDS: Readonly<Record<string, ReadOnlySpec>> = {
  ls: {
    operands: 'names',
    valued: ['-I', '--ignore', '-w', '--width', '-T', '--tabsize', '--hide'],
  },
  tree: {
    operands: 'names',
    valued: ['-L', '-P', '-I', '-o', '--charset', '--filelimit'],
    veto: firstVeto(optionVeto(['-o'], 'writes its listing to a file (tree -o)'), dynamicVeto),
  },
  cat: { operands: 'contents' },
  head: { operands: 'contents', valued: ['-n', '-c', '--lines', '--bytes'], numeric: true },
  tail: {
    operands: 'contents',
    valued: ['-n', '-c', '--lines', '--bytes', '-s', '--sleep-interval', '--pid'],
    numeric: true,
  },
  wc: { operands: 'contents', valued: ['--files0-from'], reads: ['--files0-from'] },
  nl: { operands: 'contents', valued: ['-b', '-d', '-f', '-h', '-i', '-n', '-s', '-v', '-w'] },
  tac: { operands: 'contents', valued: ['-s', '--separator'] },
  rev: { operands: 'contents' },
  grep: {
    operands: 'contents',
    patternUnless: ['-e', '--regexp', '-f', '--file'],
    reads: ['-f', '--file', '--exclude-from'],
    valued: [
      '--exclude-from',
      '-e',
      '--regexp',
      '-f',
      '--file',
      '-m',
      '--max-count',
      '-A',
      '-B',
      '-C',
      '-d',
      '--directories',
      '-D',
      '--devices',
    ],
    veto: grepVeto,
  },
  rg: {
    operands: 'contents',
    patternUnless: ['-e', '--regexp', '-f', '--file', '--files', '--type-list'],
    reads: ['-f', '--file', '--ignore-file'],
    valued: [
      '-e',
      '--regexp',
      '-f',
      '--file',
      '-g',
      '--glob',
      '--iglob',
      '-t',
      '--type',
      '-T',
      '--type-not',
      '-m',
      '--max-count',
      '-A',
      '-B',
      '-C',
      '--after-context',
      '--before-context',
      '--context',
      '-j',
      '--threads',
      '-M',
      '--max-columns',
      '-d',
      '--max-depth',
      '-E',
      '--encoding',
      '-r',
      '--replace',
      '--sort',
      '--sortr',
      '--pre',
      '--pre-glob',
      '--hostname-bin',
      '--ignore-file',
      '--type-add',
      '--color',
      '--colors',
    ],
    veto: rgVeto,
  },
  sed: {
    operands: 'contents',
    patternUnless: ['-e', '--expression', '-f', '--file'],
    valued: ['-e', '--expression', '-f', '--file', '-l', '--line-length'],
    veto: sedVeto,
  },
  echo: { operands: 'none' },
  printf: {
    operands: 'none',
    veto: firstVeto(optionVeto(['-v'], 'sets a shell variable (printf -v)'), (_split, args) =>
      // Options come before the format; a format computed at run time could be `-v`.
      args[0] !== undefined && args[0].value === null ? DYNAMIC_OPTIONS : null,
    ),
  },
  pwd: { operands: 'none' },
  true: { operands: 'none' },
  exit: { operands: 'none' },
  false: { operands: 'none' },
  ':': { operands: 'none' },
  test: TEST,
  '[': TEST,
  sleep: { operands: 'none' },
  exec: { operands: 'none' },
  basename: { operands: 'none' },
  dirname: { operands: 'none' },
  realpath: { operands: 'none' },
  readlink: { operands: 'none' },
  which: { operands: 'none' },
  type: { operands: 'none' },
  command: {
    operands: 'none',
    veto: firstVeto(dynamicVeto, (split, args) =>
      args.length === 0 || hasOption(split.options, ['-v', '-V'])
        ? null
        : 'runs a command the analysis could not unwrap',
    ),
  },
  whoami: { operands: 'none' },
  id: { operands: 'none' },
  uname: { operands: 'none' },
  nproc: { operands: 'none' },
  seq: { operands: 'none' },
  expr: { operands: 'none' },
  date: {
    operands: 'none',
    valued: ['-d', '--date', '-f', '--file', '-r', '--reference'],
    reads: ['-f', '--file', '-r', '--reference'],
    veto: firstVeto(optionVeto(['-s', '--set'], 'sets the system clock (date -s)'), dynamicVeto),
  },
  stat: { operands: 'names', valued: ['-c', '--format', '--printf'] },
  file: {
    operands: 'names',
    valued: ['-m', '--magic-file', '-F', '--separator', '-f', '--files-from'],
    reads: ['-m', '--magic-file', '-f', '--files-from'],
    veto: firstVeto(
      optionVeto(['-C', '--compile'], 'writes a compiled magic file (file -C)'),
      dynamicVeto,
    ),
  },
  du: {
    operands: 'names',
    valued: [
      '-d',
      '--max-depth',
      '-B',
      '--block-size',
      '-t',
      '--threshold',
      '--exclude',
      '-X',
      '--exclude-from',
      '--files0-from',
    ],
    reads: ['-X', '--exclude-from', '--files0-from'],
  },
  df: { operands: 'names' },
  diff: {
    operands: 'contents',
    valued: [
      '-C',
      '-U',
      '-L',
      '--label',
      '-I',
      '-x',
      '-X',
      '--exclude',
      '--exclude-from',
      '-F',
      '--from-file',
      '--to-file',
    ],
    reads: ['-X', '--exclude-from', '--from-file', '--to-file'],
    veto: optionVeto(
      ['-r', '--recursive'],
      'compares directories recursively, which reads hidden files such as .env too',
    ),
  },
  cmp: { operands: 'contents', valued: ['-i', '-n'] },
  comm: { operands: 'contents' },
  sort: {
    operands: 'contents',
    valued: [
      '-k',
      '--key',
      '-t',
      '--field-separator',
      '-S',
      '--buffer-size',
      '-T',
      '--temporary-directory',
      '-o',
      '--output',
      '--compress-program',
      '--files0-from',
      '--random-source',
    ],
    reads: ['--files0-from', '--random-source'],
    veto: firstVeto(
      optionVeto(['-o', '--output'], 'writes its output to a file (sort -o)'),
      optionVeto(['--compress-program'], 'runs a compression program (sort --compress-program)'),
    ),
  },
  uniq: {
    operands: 'contents',
    valued: ['-f', '-s', '-w'],
    numeric: true,
    veto: operandCountVeto(1, 'writes its output to the second file named (uniq in out)'),
  },
  cut: { operands: 'contents', valued: ['-b', '-c', '-f', '-d', '--output-delimiter'] },
  tr: { operands: 'none' },
  paste: { operands: 'contents', valued: ['-d', '--delimiters'] },
  column: { operands: 'contents', valued: ['-s', '-t', '-c', '-o'] },
  fold: { operands: 'contents', valued: ['-w', '--width'] },
  md5sum: { operands: 'contents' },
  sha1sum: { operands: 'contents' },
  sha256sum: { operands: 'contents' },
  sha512sum: { operands: 'contents' },
  cksum: { operands: 'contents' },
  base64: {
    operands: 'contents',
    valued: ['-w', '--wrap', '-o', '--output', '-i', '--input'],
    veto: optionVeto(['-o', '--output'], 'writes its output to a file (base64 -o)'),
  },
  xxd: {
    operands: 'contents',
    valued: ['-c', '-g', '-l', '-s', '-o', '-n'],
    veto: operandCountVeto(1, 'writes to the second file named (xxd in out)'),
  },
  od: { operands: 'contents', valued: ['-A', '-j', '-N', '-t', '-w'] },
  hexdump: { operands: 'contents', valued: ['-n', '-s', '-e', '-f'] },
  strings: { operands: 'contents', valued: ['-n', '-t', '-e'] },
};

/** `git` subcommands that only read, checked like the commands above. */
export const READ_ONLY_GIT_SUBCOMMANDS: Readonly<Record<string, ReadOnlySpec>> = {
  status: GIT_FREE_TEXT,
  log: { operands: 'contents' },
  diff: { operands: 'contents' },
  show: { operands: 'none' },
  blame: { operands: 'contents' },
  'ls-files': { operands: 'names' },
  'rev-parse': GIT_FREE_TEXT,
  describe: GIT_FREE_TEXT,
  shortlog: GIT_FREE_TEXT,
};
