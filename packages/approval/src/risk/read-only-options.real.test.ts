import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeBash } from './__fixtures__/judge.js';
import type { ArgumentSyntax } from './options/argument-syntax.js';
import { type OptionTable, resolveLong } from './options/option-table.js';
import { READ_ONLY_COMMANDS, READ_ONLY_GIT_SUBCOMMANDS } from './read-only-commands.js';

// The option tables checked against the programs installed here: each table covers every option
// the program's help lists, an abbreviation resolves to the option the program itself picks, and
// the abbreviated commands the policy now asks for really do what it says. A program that is not
// installed is skipped, and shown as skipped.

const ENV = { LC_ALL: 'C', PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir() };

function installed(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

interface Ran {
  readonly stdout: string;
  readonly stderr: string;
}

function run(program: string, args: readonly string[], cwd: string): Promise<Ran> {
  return new Promise((done) => {
    const child = execFile(
      program,
      [...args],
      { cwd, env: ENV, timeout: 20_000, encoding: 'utf8' },
      (_error, stdout, stderr) => done({ stdout, stderr }),
    );
    child.stdin?.end();
  });
}

/** A new repository with one commit, in a temporary directory. */
async function gitRepository(): Promise<string> {
  const repo = await mkdtemp(join(tmpdir(), 'tiny-claw-git-'));
  await run('git', ['init', '-q'], repo);
  const who = ['-c', 'user.email=t@example.com', '-c', 'user.name=t'];
  await run('git', [...who, 'commit', '-q', '--allow-empty', '-m', 'one'], repo);
  return repo;
}

const BUILTINS = new Set(['printf', 'pwd', 'type', 'command']);

// The options a help text lists: `--name` and `-x` where an option line or a usage line names
// them (prose such as cut's `-M` range and diff's `--GTYPE-group-format` placeholders left out).
function listedOptions(help: string): { long: Set<string>; short: Set<string> } {
  const lines = help
    .split('\n')
    .filter(
      (text) => /^\s{1,12}-/.test(text) || /^\s*(usage:|\[)/i.test(text) || /^\t\[/.test(text),
    )
    .map((text) => text.replace(/\s{2,}[^-\s].*$/, ''));
  const long = new Set(
    lines.flatMap((text) =>
      [...text.matchAll(/(?<![\w-])--([a-z0-9][a-z0-9-]*)/g)].map((m) => m[1] as string),
    ),
  );
  const short = new Set(
    lines.flatMap((text) =>
      [...text.matchAll(/(?<![\w-])-([A-Za-z0-9.])(?=[,\s[=\]]|$)/g)].map((m) => m[1] as string),
    ),
  );
  return { long, short };
}

const PROSE: Readonly<Record<string, readonly string[]>> = { cut: ['M'] };

const PROGRAMS_WITH_OPTIONS = Object.entries(READ_ONLY_COMMANDS)
  .filter(([, spec]) => spec.syntax.kind !== 'text')
  .map(([name, spec]) => ({ name, table: (spec.syntax as { table: OptionTable }).table }));

// Each of these starts many processes, which a busy machine makes slow.
const SLOW = { timeout: 120_000 };

describe('the option tables against the installed programs', SLOW, () => {
  for (const { name, table } of PROGRAMS_WITH_OPTIONS) {
    const builtin = BUILTINS.has(name);
    it.skipIf(!builtin && !installed(name))(
      `cover every option ${name} lists in its help`,
      async () => {
        const ran = builtin
          ? await run('bash', ['-c', `help ${name}`], tmpdir())
          : await run(name, [name === 'xxd' || name === 'which' ? '-h' : '--help'], tmpdir());
        const listed = listedOptions(ran.stdout + ran.stderr);
        expect(listed.long.size + listed.short.size, `${name} lists no options`).toBeGreaterThan(0);
        expect([...listed.long].filter((option) => !table.long.has(option))).toEqual([]);
        const prose = PROSE[name] ?? [];
        expect(
          [...listed.short].filter(
            (letter) => !table.short.has(`-${letter}`) && !prose.includes(letter),
          ),
        ).toEqual([]);
      },
    );
  }

  const gitReady = installed('git');

  it.skipIf(!gitReady)(
    'cover every option the manual of each read-only git subcommand lists',
    async () => {
      const subcommands = Object.entries(READ_ONLY_GIT_SUBCOMMANDS).flatMap(([name, spec]) =>
        spec.syntax.kind === 'git' ? [{ name, layers: spec.syntax.layers }] : [],
      );
      // The manuals are rendered at once: man is slow, and one at a time makes this test long.
      const manuals = await Promise.all(
        subcommands.map(
          ({ name }) =>
            new Promise<string>((done) =>
              execFile(
                'man',
                ['-P', 'cat', `git-${name}`],
                { env: { ...ENV, MANWIDTH: '200' }, encoding: 'utf8', timeout: 60_000 },
                (_error, stdout) => done(stdout),
              ),
            ),
        ),
      );
      for (const [index, { name, layers }] of subcommands.entries()) {
        const man = manuals[index] ?? '';
        const lines = man.split('\n').filter((text) => /^\s{7}-/.test(text));
        const long = lines.flatMap((text) =>
          [...text.matchAll(/(?<![\w-])--(\[no-\])?([a-z0-9][a-z0-9-]*)/g)].flatMap((m) =>
            m[1] === undefined ? [m[2] as string] : [m[2] as string, `no-${m[2]}`],
          ),
        );
        const short = lines.flatMap((text) =>
          [...text.matchAll(/(?<![\w-])-([A-Za-z])(?![\w-])/g)].map((m) => m[1] as string),
        );
        expect(man.length, `git-${name} has a manual`).toBeGreaterThan(0);
        expect(
          long.filter((option) => !layers.some((layer) => layer.table.long.has(option))),
          name,
        ).toEqual([]);
        expect(
          short.filter((letter) => !layers.some((layer) => layer.table.short.has(`-${letter}`))),
          name,
        ).toEqual([]);
      }
    },
  );

  it.skipIf(!gitReady)('cover every option git itself lists for each subcommand', async () => {
    const repo = await gitRepository();
    for (const [name, spec] of Object.entries(READ_ONLY_GIT_SUBCOMMANDS)) {
      if (spec.syntax.kind !== 'git') continue;
      const layers = spec.syntax.layers;
      const listed = (await run('git', [name, '--git-completion-helper-all'], repo)).stdout
        .split(/\s+/)
        .filter((word) => word.startsWith('--') && word !== '--')
        .map((word) => word.slice(2).replace(/=$/, ''));
      expect(listed.length, name).toBeGreaterThan(0);
      expect(
        listed.filter((option) => !layers.some((layer) => layer.table.long.has(option))),
        name,
      ).toEqual([]);
    }
    await rm(repo, { recursive: true, force: true });
  });
});

// What getopt itself says about a long option spelling: the option it resolved to (named in
// its complaint about a value), that it is ambiguous, or that it does not know it. The form of
// the spelling is picked so that the program stops at that complaint and runs nothing.
function realResolution(stderr: string): string {
  const named = /option '--([^']+)' (?:doesn't allow|requires) an argument/.exec(stderr);
  if (named !== null) return `--${named[1]}`;
  if (/option '--[^']+' is ambiguous/.test(stderr)) return 'ambiguous';
  if (/unrecognized option/.test(stderr)) return 'unknown';
  return `unexpected: ${stderr.split('\n')[0]}`;
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>) {
  for (let start = 0; start < items.length; start += size)
    await Promise.all(items.slice(start, start + size).map(work));
}

describe('abbreviations, resolved as the installed programs resolve them', SLOW, () => {
  const getopt = PROGRAMS_WITH_OPTIONS.filter(({ name }) => {
    const syntax = READ_ONLY_COMMANDS[name]?.syntax as ArgumentSyntax;
    return syntax.kind === 'getopt' && syntax.abbreviations !== false && !BUILTINS.has(name);
  });

  for (const { name, table } of getopt) {
    it.skipIf(!installed(name))(
      `${name} picks the option the table picks for each shortest unique prefix, and calls a shared prefix ambiguous`,
      async () => {
        const cwd = await mkdtemp(join(tmpdir(), 'tiny-claw-getopt-'));
        try {
          const prefixes = new Set<string>();
          for (const option of table.long.keys()) {
            for (let end = 1; end <= option.length; end += 1) {
              const resolution = resolveLong(table, option.slice(0, end), true);
              if (resolution.kind === 'ambiguous' && end === 1) prefixes.add(option.slice(0, end));
              if (resolution.kind === 'match') {
                prefixes.add(option.slice(0, end));
                if (end > 1) prefixes.add(option.slice(0, end - 1));
                break;
              }
            }
          }
          // Every prefix of an option that matters (one with a rule) and every ambiguous one are
          // asked of the program; of the harmless rest, one in ten, so the suite stays quick on
          // a busy machine (a full pass over all of them agreed when the tables were written).
          const sample = [...prefixes].filter((prefix, index) => {
            const ours = resolveLong(table, prefix, true);
            if (ours.kind !== 'match') return true;
            return Object.keys(ours.match.def.rule).length > 0 || index % 10 === 0;
          });
          const mismatches: string[] = [];
          await inBatches(sample, 8, async (prefix) => {
            const ours = resolveLong(table, prefix, true);
            if (ours.kind === 'match' && ours.match.argument === 'optional') return;
            const spelled =
              ours.kind === 'match' && ours.match.argument === 'required'
                ? `--${prefix}`
                : `--${prefix}=1`;
            const real = realResolution((await run(name, [spelled], cwd)).stderr);
            const expected =
              ours.kind === 'match'
                ? ours.match.def.spellings.map((spelling) => spelling.name)
                : [ours.kind];
            if (!expected.includes(real)) mismatches.push(`${spelled}: ${expected[0]} but ${real}`);
          });
          expect(mismatches).toEqual([]);
        } finally {
          await rm(cwd, { recursive: true, force: true });
        }
      },
    );
  }
});

describe('abbreviated options that write, run programs or read further, run for real', SLOW, () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tiny-claw-abbreviations-'));
    await writeFile(join(dir, 'in'), 'b\na\n');
    await writeFile(join(dir, 'f'), 'a\n');
    await writeFile(join(dir, 'big'), Array.from({ length: 300 }, (_, i) => `${i}\n`).join(''));
    await writeFile(join(dir, 'mark.sh'), '#!/bin/sh\ntouch compress-ran\nexec cat\n');
    await chmod(join(dir, 'mark.sh'), 0o755);
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'sub', '.env'), 'secret=1\n');
    await writeFile(join(dir, 'list'), 'f\0');
    await mkdir(join(dir, 'a'));
    await mkdir(join(dir, 'b'));
    await writeFile(join(dir, 'a', '.env'), 'one\n');
    await writeFile(join(dir, 'b', '.env'), 'two\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function asks(command: string): Promise<void> {
    expect((await judgeBash(command)).verdict, command).not.toBe('allow');
  }

  it.skipIf(!installed('sort'))('sort --outp=FILE writes FILE, and the policy asks', async () => {
    await run('sort', ['--outp=out', 'in'], dir);
    expect(await readFile(join(dir, 'out'), 'utf8')).toBe('a\nb\n');
    await asks('sort --outp=out in');
  });

  it.skipIf(!installed('sort'))(
    'sort --com=PROGRAM runs PROGRAM, and the policy asks',
    async () => {
      await run('sort', ['--com=./mark.sh', '-S', '1', 'big'], dir);
      expect(existsSync(join(dir, 'compress-ran'))).toBe(true);
      await asks('sort --com=./mark.sh -S 1 big');
    },
  );

  it.skipIf(!installed('sed'))(
    'sed --in-pl edits the file in place, and the policy asks',
    async () => {
      await run('sed', ['--in-pl', 's/a/b/', 'f'], dir);
      expect(await readFile(join(dir, 'f'), 'utf8')).toBe('b\n');
      await asks('sed --in-pl s/a/b/ f');
    },
  );

  it.skipIf(!installed('grep'))(
    'grep --rec reads hidden files below the directory, and the policy asks',
    async () => {
      expect((await run('grep', ['--rec', 'secret', '.'], dir)).stdout).toContain('sub/.env');
      await asks('grep --rec secret .');
    },
  );

  it.skipIf(!installed('date'))('date --se is --set, and the policy asks', async () => {
    expect((await run('date', ['--se'], dir)).stderr).toContain(
      "option '--set' requires an argument",
    );
    await asks('date --se 2020-01-01');
  });

  it.skipIf(!installed('wc'))(
    'wc --files0=LIST reads the files LIST names, and the policy asks',
    async () => {
      expect((await run('wc', ['--files0=list'], dir)).stdout).toMatch(/\bf\n/);
      await asks('wc --files0=list');
    },
  );

  it.skipIf(!installed('diff'))(
    'diff --rec compares hidden files below both directories, and the policy asks',
    async () => {
      expect((await run('diff', ['--rec', 'a', 'b'], dir)).stdout).toContain('a/.env');
      await asks('diff --rec a b');
    },
  );

  it.skipIf(!installed('xxd'))(
    'xxd writes a file named by any word after its input, and the policy asks',
    async () => {
      await run('xxd', ['in', '-ps'], dir);
      expect(existsSync(join(dir, '-ps'))).toBe(true);
      await asks('xxd in -ps');
    },
  );

  it.skipIf(!installed('head'))(
    'head -5c reads the file after it, and the policy checks that file',
    async () => {
      expect((await run('head', ['-5c', 'sub/.env'], dir)).stdout).toBe('secre');
      await asks('head -5c sub/.env');
    },
  );

  it.skipIf(!installed('rg'))(
    'rg takes no abbreviations, and the policy asks for one as unknown',
    async () => {
      expect((await run('rg', ['--hidd', 'secret'], dir)).stderr).toContain(
        "Found argument '--hidd'",
      );
      await asks('rg --hidd secret');
    },
  );

  it.skipIf(!installed('git'))(
    'git log takes no abbreviations of --output, and the policy asks for one as unknown',
    async () => {
      const repo = await gitRepository();
      expect((await run('git', ['log', '--outp=x'], repo)).stderr).toContain('--outp=x');
      expect(existsSync(join(repo, 'x'))).toBe(false);
      await asks('git log --outp=x');
      expect((await run('git', ['ls-files', '--exc=x'], repo)).stderr).toContain(
        'ambiguous option',
      );
      await asks('git ls-files --exc=x');
      await rm(repo, { recursive: true, force: true });
    },
  );
});
