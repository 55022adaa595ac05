import { describe, expect, it } from 'vitest';
import { judgeBash } from './__fixtures__/judge.js';
import { type Expected, LONG_OPTION_VERDICTS } from './__fixtures__/long-option-verdicts.js';
import { GIT_LAYERS } from './options/git-subcommand-syntaxes.js';
import { type OptionTable, resolveLong } from './options/option-table.js';
import { READ_ONLY_COMMANDS, type ReadOnlySpec } from './read-only-commands.js';

// The read-only rules judge each option as its program parses it. Every long option of every
// program is listed in the fixture with its verdict; this file checks the tables against that
// listing, runs each option through the whole policy, and checks abbreviations: a unique prefix
// is the option it abbreviates, a prefix of several options asks.

interface Subject {
  readonly table: OptionTable;
  /** The command line that reaches the table, before the option (`sort`, `git log`). */
  readonly command: string;
  /** Words after the option: a pattern and a file, a file, or nothing. */
  readonly after: string;
  /** Whether the parser takes unique prefixes of long options. */
  readonly abbreviations: boolean;
}

const GIT_SUBJECTS: Readonly<Record<string, Subject>> = {
  'git status': { table: GIT_LAYERS.status, command: 'git status', after: '', abbreviations: true },
  'git log': { table: GIT_LAYERS.log, command: 'git log', after: '', abbreviations: false },
  'git diff': { table: GIT_LAYERS.diffOwn, command: 'git diff', after: '', abbreviations: false },
  'git blame': {
    table: GIT_LAYERS.blame,
    command: 'git blame',
    after: 'notes.txt',
    abbreviations: true,
  },
  'git ls-files': {
    table: GIT_LAYERS.lsFiles,
    command: 'git ls-files',
    after: '',
    abbreviations: true,
  },
  'git describe': {
    table: GIT_LAYERS.describe,
    command: 'git describe',
    after: '',
    abbreviations: true,
  },
  'git shortlog': {
    table: GIT_LAYERS.shortlog,
    command: 'git shortlog',
    after: '',
    abbreviations: true,
  },
  'git revision options': {
    table: GIT_LAYERS.revision,
    command: 'git log',
    after: '',
    abbreviations: false,
  },
  'git diff options': {
    table: GIT_LAYERS.diff,
    command: 'git log',
    after: '',
    abbreviations: false,
  },
};

// The words that follow the option so that the rest of the command is harmless.
const FOLLOWING: Readonly<Record<string, string>> = { grep: 'foo', rg: 'foo', sed: 'p' };
// A value for options that take one: a number, or a script that only prints for sed.
const VALUE: Readonly<Record<string, string>> = { sed: 'p' };

function subjectOf(name: string): Subject {
  const git = GIT_SUBJECTS[name];
  if (git !== undefined) return git;
  const spec = READ_ONLY_COMMANDS[name] as ReadOnlySpec;
  const syntax = spec.syntax;
  if (syntax.kind === 'text' || syntax.kind === 'git') throw new Error(`${name} has no options`);
  const file = spec.operands === 'none' ? '' : 'notes.txt';
  return {
    table: syntax.table,
    command: name,
    after: [FOLLOWING[name], file].filter((word) => word !== undefined && word !== '').join(' '),
    abbreviations: syntax.kind === 'getopt' && syntax.abbreviations !== false,
  };
}

const SUBJECTS = Object.keys(LONG_OPTION_VERDICTS).map((name) => ({
  name,
  subject: subjectOf(name),
  listed: LONG_OPTION_VERDICTS[name] as Readonly<Record<string, Expected>>,
}));

/** `--name=` → `name`, `--name[=]` → `name`. */
function bare(key: string): string {
  return key.replace(/^--/, '').replace(/(\[=\]|=)$/, '');
}

function takesValue(key: string): boolean {
  return key.endsWith('=') || key.endsWith('[=]');
}

function valueFor(subject: Subject): string {
  return VALUE[subject.command] ?? '1';
}

function line(subject: Subject, spelled: string, value: string | null): string {
  const option = value === null ? spelled : `${spelled}=${value}`;
  return [subject.command, option, subject.after].filter((word) => word !== '').join(' ');
}

function verdictOf(listed: Readonly<Record<string, Expected>>, key: string): Expected {
  const expected = listed[key] as Expected;
  if (expected.kind !== 'alias') return expected;
  const target = Object.keys(listed).find((other) => bare(other) === bare(expected.of));
  return verdictOf(listed, target as string);
}

async function expectVerdict(command: string, expected: Expected): Promise<void> {
  const verdict = await judgeBash(command);
  switch (expected.kind) {
    case 'allow':
    case 'reads':
    case 'askWhen':
      expect(verdict, command).toEqual({ verdict: 'allow', reasons: [] });
      return;
    case 'ask':
    case 'writes':
      expect(verdict.verdict, command).toBe('approval_required');
      expect(verdict.reasons, command).toContain(`${expected.reason} (\`${command}\`)`);
      return;
    default:
      throw new Error(`unexpected verdict for ${command}`);
  }
}

// Which listed names a prefix could mean, the way getopt and git resolve abbreviations: an
// exact name wins; otherwise every name it starts, spellings of one option counting once.
function expectedResolution(
  listed: Readonly<Record<string, Expected>>,
  prefix: string,
): { kind: 'match'; names: string[] } | { kind: 'ambiguous' } | { kind: 'unknown' } {
  const names = Object.keys(listed).map(bare);
  const root = (name: string): string => {
    const key = Object.keys(listed).find((other) => bare(other) === name) as string;
    const expected = listed[key] as Expected;
    return expected.kind === 'alias' ? bare(expected.of) : name;
  };
  const group = (name: string) => names.filter((other) => root(other) === root(name));
  if (names.includes(prefix)) return { kind: 'match', names: group(prefix) };
  const roots = new Set(names.filter((name) => name.startsWith(prefix)).map(root));
  if (roots.size === 0) return { kind: 'unknown' };
  if (roots.size > 1) return { kind: 'ambiguous' };
  return { kind: 'match', names: group([...roots][0] as string) };
}

function shortestUniquePrefix(
  listed: Readonly<Record<string, Expected>>,
  name: string,
): string | null {
  for (let end = 1; end < name.length; end += 1) {
    const prefix = name.slice(0, end);
    const resolution = expectedResolution(listed, prefix);
    if (resolution.kind === 'match' && resolution.names.includes(name)) return prefix;
  }
  return null;
}

describe('the option tables of the read-only programs', () => {
  it.each(SUBJECTS)(
    'list every long option of $name, each with how it takes a value',
    ({ subject, listed }) => {
      const fromTable = [...subject.table.long].map(
        ([name, match]) =>
          `--${name}${match.argument === 'required' ? '=' : match.argument === 'optional' ? '[=]' : ''}`,
      );
      expect(fromTable.sort()).toEqual(Object.keys(listed).sort());
    },
  );

  it('cover every program on the read-only list and every read-only git subcommand', () => {
    const listed = Object.keys(READ_ONLY_COMMANDS).filter((name) => {
      const kind = READ_ONLY_COMMANDS[name]?.syntax.kind;
      return kind !== 'text';
    });
    expect(listed.every((name) => name in LONG_OPTION_VERDICTS)).toBe(true);
    expect(Object.keys(GIT_SUBJECTS).every((name) => name in LONG_OPTION_VERDICTS)).toBe(true);
  });
});

describe('every long option, judged by the policy', () => {
  it.each(SUBJECTS)('judges each long option of $name as listed', async ({ subject, listed }) => {
    for (const key of Object.keys(listed)) {
      const expected = verdictOf(listed, key);
      const spelled = `--${bare(key)}`;
      await expectVerdict(
        line(subject, spelled, takesValue(key) ? valueFor(subject) : null),
        expected,
      );
      if (expected.kind === 'reads') {
        const outside = await judgeBash(line(subject, spelled, '/etc/passwd'));
        expect(outside.reasons, key).toContain('reads outside the workdir (`/etc/passwd`)');
      }
      if (expected.kind === 'writes')
        expect((await judgeBash(line(subject, spelled, '.git/x'))).verdict, key).toBe('deny');
      if (expected.kind === 'askWhen') {
        const command = line(subject, spelled, 'recurse');
        expect((await judgeBash(command)).reasons, key).toContain(
          `${expected.reason} (\`${command}\`)`,
        );
      }
    }
  });
});

describe('abbreviated long options', () => {
  const abbreviating = SUBJECTS.filter(({ subject }) => subject.abbreviations);
  const exact = SUBJECTS.filter(({ subject }) => !subject.abbreviations);

  it.each(abbreviating)(
    'resolve every prefix of every option of $name the way getopt does',
    ({ subject, listed }) => {
      for (const key of Object.keys(listed)) {
        const name = bare(key);
        for (let end = 1; end <= name.length; end += 1) {
          const prefix = name.slice(0, end);
          const expected = expectedResolution(listed, prefix);
          const actual = resolveLong(subject.table, prefix, true);
          expect(actual.kind, `--${prefix}`).toBe(expected.kind);
          if (actual.kind === 'match' && expected.kind === 'match')
            expect(expected.names, `--${prefix}`).toContain(actual.match.name.slice(2));
        }
      }
    },
  );

  it.each(abbreviating)(
    'judge the shortest unique prefix of each option of $name like the option',
    async ({ subject, listed }) => {
      for (const key of Object.keys(listed)) {
        const prefix = shortestUniquePrefix(listed, bare(key));
        if (prefix === null) continue;
        const command = line(subject, `--${prefix}`, takesValue(key) ? valueFor(subject) : null);
        await expectVerdict(command, verdictOf(listed, key));
      }
    },
  );

  it.each(abbreviating)(
    'ask for a prefix of $name that could mean several options',
    async ({ subject, listed }) => {
      const names = Object.keys(listed).map(bare);
      const ambiguous = names
        .flatMap((name) => [...name].map((_, end) => name.slice(0, end + 1)))
        .find((prefix) => expectedResolution(listed, prefix).kind === 'ambiguous');
      if (ambiguous === undefined) return;
      const command = line(subject, `--${ambiguous}`, null);
      const verdict = await judgeBash(command);
      expect(verdict.verdict).toBe('approval_required');
      expect(verdict.reasons.join('\n')).toMatch(
        new RegExp(`uses an abbreviated option that could mean .* \\(--${ambiguous}\\)`),
      );
    },
  );

  it.each(exact)(
    'ask for a prefix of an option of $name, which reads long options by exact name only',
    async ({ name, subject, listed }) => {
      const program = GIT_SUBJECTS[name] === undefined ? name : subject.command;
      const known = new Set(
        SUBJECTS.filter((other) => other.subject.command === subject.command).flatMap((other) =>
          Object.keys(other.listed).map(bare),
        ),
      );
      for (const option of Object.keys(listed).map(bare)) {
        const prefix = option.slice(0, -1);
        if (prefix === '' || known.has(prefix)) continue;
        const command = line(subject, `--${prefix}`, null);
        expect((await judgeBash(command)).reasons, command).toContain(
          `uses an option ${program} does not have (--${prefix}) (\`${command}\`)`,
        );
      }
    },
  );
});
