import type { ShellWord } from '../shell/shell-word.js';
import type { ArgumentSyntax } from './argument-syntax.js';
import { letters, type OptionRule, optionTable } from './option-table.js';

// GNU coreutils 9.1, as Debian bookworm ships it: every short and long option of each program,
// hidden ones included (read from each program's option string and option array), with a rule
// for each option that makes the program more than a reader of the files it is given.

const STANDARD = ['--help', '--version'];

function namesFromFile(program: string, option: string): OptionRule {
  return {
    ask: `reads the files named in another file, which the analysis cannot check (${program} ${option})`,
  };
}

function checksumList(program: string): OptionRule {
  return {
    ask: `reads the files named in a checksum list, which the analysis cannot check (${program} -c)`,
  };
}

const DIGITS = letters('0123456789');

// `head -5`, `head -5c`: the old form, read only as the first word.
function headObsolete(args: readonly ShellWord[], index: number): number {
  return index === 0 && /^-\d+[bcklmqvz]*$/.test(args[0]?.value ?? '') ? 1 : 0;
}

// `tail -5`, `tail -5cf`, `tail -f`: the old form, read only as the first word.
function tailObsolete(args: readonly ShellWord[], index: number): number {
  return index === 0 && /^-(?:\d+[bcl]?f?|[bl]f?)$/.test(args[0]?.value ?? '') ? 1 : 0;
}

// `sort +1 -2`: an old key, read when a `+POS` word is followed by a `-POS` word (a lone `+1`
// is a file name).
function sortObsolete(args: readonly ShellWord[], index: number): number {
  const position = /^\+\d+(?:\.\d+)?[bdfgiMhnRrV]*$/;
  const end = /^-\d+(?:\.\d+)?[bdfgiMhnRrV]*$/;
  if (!position.test(args[index]?.value ?? '')) return 0;
  return end.test(args[index + 1]?.value ?? '') ? 2 : 0;
}

// `uniq +3`: skip three characters, an old form read anywhere before `--`.
function uniqObsolete(args: readonly ShellWord[], index: number): number {
  return /^\+\d+$/.test(args[index]?.value ?? '') ? 1 : 0;
}

const DIGEST_OPTIONS = (program: string) =>
  optionTable([
    '-b --binary',
    ['-c --check', checksumList(program)],
    '--ignore-missing',
    '--quiet',
    '--status',
    '--strict',
    '--tag',
    '-t --text',
    '-w --warn',
    '-z --zero',
    ...STANDARD,
  ]);

function digest(program: string): ArgumentSyntax {
  return { kind: 'getopt', table: DIGEST_OPTIONS(program) };
}

/**
 * How each coreutils program on the read-only list parses its command line.
 *
 * @example
 * COREUTILS_SYNTAXES.sort?.kind; // 'getopt'
 */
export const COREUTILS_SYNTAXES: Readonly<Record<string, ArgumentSyntax>> = {
  ls: {
    kind: 'getopt',
    table: optionTable([
      '-a --all',
      '-A --almost-all',
      '--author',
      '-b --escape',
      '--block-size=',
      '-B --ignore-backups',
      '--color[=]',
      '-d --directory',
      '-D --dired',
      '-F --classify[=]',
      '--file-type',
      '--format=',
      '--full-time',
      '--group-directories-first',
      '-G --no-group',
      '-h --human-readable',
      '--si',
      '-H --dereference-command-line',
      '--dereference-command-line-symlink-to-dir',
      '--hide=',
      '--hyperlink[=]',
      '--indicator-style=',
      '-i --inode',
      '-I: --ignore=',
      '-k --kibibytes',
      '-L --dereference',
      '-n --numeric-uid-gid',
      '-N --literal',
      '-q --hide-control-chars',
      '--show-control-chars',
      '-Q --quote-name',
      '--quoting-style=',
      '-r --reverse',
      '-R --recursive',
      '-s --size',
      '--sort=',
      '--time=',
      '--time-style=',
      '-T: --tabsize=',
      '-w: --width=',
      '-Z --context',
      '--zero',
      ...letters('cCfglmopStuUvxX1'),
      ...STANDARD,
    ]),
  },
  cat: {
    kind: 'getopt',
    table: optionTable([
      '-A --show-all',
      '-b --number-nonblank',
      '-e',
      '-E --show-ends',
      '-n --number',
      '-s --squeeze-blank',
      '-t',
      '-T --show-tabs',
      '-u',
      '-v --show-nonprinting',
      ...STANDARD,
    ]),
  },
  head: {
    kind: 'getopt',
    obsolete: headObsolete,
    table: optionTable([
      '-c: --bytes=',
      '-n: --lines=',
      '-q --quiet --silent',
      '-v --verbose',
      '-z --zero-terminated',
      '---presume-input-pipe',
      ...DIGITS,
      ...STANDARD,
    ]),
  },
  tail: {
    kind: 'getopt',
    obsolete: tailObsolete,
    table: optionTable([
      '-c: --bytes=',
      '-f',
      '--follow[=]',
      '-F',
      '-n: --lines=',
      '--max-unchanged-stats=',
      '--pid=',
      '-q --quiet --silent',
      '--retry',
      '-s: --sleep-interval=',
      '-v --verbose',
      '-z --zero-terminated',
      '---disable-inotify',
      '---presume-input-pipe',
      ...DIGITS,
      ...STANDARD,
    ]),
  },
  wc: {
    kind: 'getopt',
    table: optionTable([
      '-c --bytes',
      '-m --chars',
      '-l --lines',
      '--debug',
      ['--files0-from=', namesFromFile('wc', '--files0-from')],
      '-L --max-line-length',
      '-w --words',
      ...STANDARD,
    ]),
  },
  nl: {
    kind: 'getopt',
    table: optionTable([
      '-b: --body-numbering=',
      '-d: --section-delimiter=',
      '-f: --footer-numbering=',
      '-h: --header-numbering=',
      '-i: --line-increment=',
      '-l: --join-blank-lines=',
      '-n: --number-format=',
      '-p --no-renumber',
      '-s: --number-separator=',
      '-v: --starting-line-number=',
      '-w: --number-width=',
      ...STANDARD,
    ]),
  },
  tac: {
    kind: 'getopt',
    table: optionTable(['-b --before', '-r --regex', '-s: --separator=', ...STANDARD]),
  },
  sleep: { kind: 'getopt', table: optionTable(STANDARD) },
  basename: {
    kind: 'getopt',
    stopAtOperand: true,
    table: optionTable(['-a --multiple', '-s: --suffix=', '-z --zero', ...STANDARD]),
  },
  dirname: { kind: 'getopt', table: optionTable(['-z --zero', ...STANDARD]) },
  realpath: {
    kind: 'getopt',
    table: optionTable([
      '-e --canonicalize-existing',
      '-m --canonicalize-missing',
      '-L --logical',
      '-P --physical',
      '-q --quiet',
      '--relative-to=',
      '--relative-base=',
      '-s --strip --no-symlinks',
      '-z --zero',
      ...STANDARD,
    ]),
  },
  readlink: {
    kind: 'getopt',
    table: optionTable([
      '-f --canonicalize',
      '-e --canonicalize-existing',
      '-m --canonicalize-missing',
      '-n --no-newline',
      '-q --quiet',
      '-s --silent',
      '-v --verbose',
      '-z --zero',
      ...STANDARD,
    ]),
  },
  whoami: { kind: 'getopt', table: optionTable(STANDARD) },
  id: {
    kind: 'getopt',
    table: optionTable([
      '-a',
      '-Z --context',
      '-g --group',
      '-G --groups',
      '-n --name',
      '-r --real',
      '-u --user',
      '-z --zero',
      ...STANDARD,
    ]),
  },
  uname: {
    kind: 'getopt',
    table: optionTable([
      '-a --all',
      '-s --kernel-name --sysname',
      '-n --nodename',
      '-r --kernel-release --release',
      '-v --kernel-version',
      '-m --machine',
      '-p --processor',
      '-i --hardware-platform',
      '-o --operating-system',
      ...STANDARD,
    ]),
  },
  nproc: { kind: 'getopt', table: optionTable(['--all', '--ignore=', ...STANDARD]) },
  seq: {
    kind: 'getopt',
    stopAtOperand: true,
    negativeNumbers: true,
    table: optionTable(['-f: --format=', '-s: --separator=', '-w --equal-width', ...STANDARD]),
  },
  // expr reads --help and --version only when they are its one argument; every other word is
  // part of the expression.
  expr: { kind: 'text' },
  date: {
    kind: 'getopt',
    table: optionTable([
      '-d: --date=',
      '--debug',
      ['-f: --file=', { reads: true }],
      '-I:: --iso-8601[=]',
      ['-r: --reference=', { reads: true }],
      '--resolution',
      '-R --rfc-email --rfc-822 --rfc-2822',
      '--rfc-3339=',
      ['-s: --set=', { ask: 'sets the system clock (date -s)' }],
      '-u --utc --uct --universal',
      ...STANDARD,
    ]),
  },
  stat: {
    kind: 'getopt',
    table: optionTable([
      '-L --dereference',
      '-f --file-system',
      '-c: --format=',
      '--printf=',
      '-t --terse',
      '--cached=',
      ...STANDARD,
    ]),
  },
  du: {
    kind: 'getopt',
    table: optionTable([
      '-0 --null',
      '-a --all',
      '--apparent-size',
      '-B: --block-size=',
      '-b --bytes',
      '-c --total',
      '-D --dereference-args',
      '-H',
      '-d: --max-depth=',
      ['--files0-from=', namesFromFile('du', '--files0-from')],
      '-h --human-readable',
      '--inodes',
      '-k',
      '-l --count-links',
      [
        '-L --dereference',
        {
          ask: 'follows symbolic links while walking directories, which may lead outside the workdir (du -L)',
        },
      ],
      '-m',
      '-P --no-dereference',
      '-S --separate-dirs',
      '-s --summarize',
      '--si',
      '-t: --threshold=',
      '--time[=]',
      '--time-style=',
      ['-X: --exclude-from=', { reads: true }],
      '--exclude=',
      '-x --one-file-system',
      ...STANDARD,
    ]),
  },
  df: {
    kind: 'getopt',
    table: optionTable([
      '-a --all',
      '-B: --block-size=',
      '-F:',
      '-h --human-readable',
      '-H --si',
      '-i --inodes',
      '-k',
      '-l --local',
      '-m',
      '--no-sync',
      '--output[=]',
      '-P --portability',
      '--sync',
      '--total',
      '-t: --type=',
      '-T --print-type',
      '-v',
      '-x: --exclude-type=',
      ...STANDARD,
    ]),
  },
  comm: {
    kind: 'getopt',
    table: optionTable([
      ...letters('123'),
      '--check-order',
      '--nocheck-order',
      '--output-delimiter=',
      '--total',
      '-z --zero-terminated',
      ...STANDARD,
    ]),
  },
  sort: {
    kind: 'getopt',
    obsolete: sortObsolete,
    table: optionTable([
      '-b --ignore-leading-blanks',
      '-c',
      '-C',
      '--check[=]',
      ['--compress-program=', { ask: 'runs a compression program (sort --compress-program)' }],
      '--debug',
      '-d --dictionary-order',
      '-f --ignore-case',
      ['--files0-from=', namesFromFile('sort', '--files0-from')],
      '-g --general-numeric-sort',
      '-h --human-numeric-sort',
      '-i --ignore-nonprinting',
      '-k: --key=',
      '-m --merge',
      '-M --month-sort',
      '-n --numeric-sort',
      ['-o: --output=', { writes: 'writes its output to a file (sort -o)' }],
      '--parallel=',
      '-r --reverse',
      '-R --random-sort',
      ['--random-source=', { reads: true }],
      '-s --stable',
      '-S: --buffer-size=',
      '--sort=',
      '-t: --field-separator=',
      '-T: --temporary-directory=',
      '--batch-size=',
      '-u --unique',
      '-V --version-sort',
      '-y:',
      '-z --zero-terminated',
      ...STANDARD,
    ]),
  },
  uniq: {
    kind: 'getopt',
    obsolete: uniqObsolete,
    table: optionTable([
      '-c --count',
      '-d --repeated',
      '-D --all-repeated[=]',
      '--group[=]',
      '-f: --skip-fields=',
      '-i --ignore-case',
      '-s: --skip-chars=',
      '-u --unique',
      '-w: --check-chars=',
      '-z --zero-terminated',
      ...DIGITS,
      ...STANDARD,
    ]),
  },
  cut: {
    kind: 'getopt',
    table: optionTable([
      '-b: --bytes=',
      '-c: --characters=',
      '-d: --delimiter=',
      '-f: --fields=',
      '-n',
      '--complement',
      '-s --only-delimited',
      '--output-delimiter=',
      '-z --zero-terminated',
      ...STANDARD,
    ]),
  },
  tr: {
    kind: 'getopt',
    stopAtOperand: true,
    table: optionTable([
      '-A',
      '-c --complement',
      '-C',
      '-d --delete',
      '-s --squeeze-repeats',
      '-t --truncate-set1',
      ...STANDARD,
    ]),
  },
  paste: {
    kind: 'getopt',
    table: optionTable(['-d: --delimiters=', '-s --serial', '-z --zero-terminated', ...STANDARD]),
  },
  fold: {
    kind: 'getopt',
    table: optionTable([
      '-b --bytes',
      '-s --spaces',
      '-w: --width=',
      ...DIGITS.map((digit) => `${digit}::`),
      ...STANDARD,
    ]),
  },
  md5sum: digest('md5sum'),
  sha1sum: digest('sha1sum'),
  sha256sum: digest('sha256sum'),
  sha512sum: digest('sha512sum'),
  cksum: {
    kind: 'getopt',
    table: optionTable([
      '-a: --algorithm=',
      '-b',
      ['-c --check', checksumList('cksum')],
      '--debug',
      '--ignore-missing',
      '-l: --length=',
      '--quiet',
      '--status',
      '--strict',
      '--tag',
      '-t',
      '--untagged',
      '-w --warn',
      '-z --zero',
      ...STANDARD,
    ]),
  },
  base64: {
    kind: 'getopt',
    table: optionTable(['-d --decode', '-i --ignore-garbage', '-w: --wrap=', ...STANDARD]),
  },
  od: {
    kind: 'getopt',
    table: optionTable([
      '-A: --address-radix=',
      '--endian=',
      '-j: --skip-bytes=',
      '-N: --read-bytes=',
      '-S: --strings[=]',
      '-t: --format=',
      '-v --output-duplicates',
      '-w:: --width[=]',
      '--traditional',
      ...letters('aBbcDdeFfHhIiLlOosXx'),
      ...STANDARD,
    ]),
  },
};
