import { READ_ONLY_GIT_SUBCOMMANDS, type ReadOnlySpec } from './read-only-commands.js';
import { type OptionSpec, scanLeadingOptions, splitArguments } from './shell/option-scan.js';
import { ownEntry } from './shell/own-entry.js';
import type { ShellWord } from './shell/shell-word.js';

/**
 * What the policy makes of one `git` command line.
 *
 * @example
 * const judged: GitJudgement = { concerns: ['force-pushes …'], readOnly: null, workTree: [] };
 */
export interface GitJudgement {
  /** Reasons for approval. */
  readonly concerns: readonly string[];
  /** The read-only subcommand's spec and its arguments, when that is what it is. */
  readonly readOnly: { readonly spec: ReadOnlySpec; readonly args: readonly ShellWord[] } | null;
  /** Directories given with `-C`, to be checked against the workdir. */
  readonly workTree: readonly ShellWord[];
}

const GLOBAL_OPTIONS: OptionSpec = {
  flags: [
    '--no-pager',
    '-P',
    '--bare',
    '--no-replace-objects',
    '--literal-pathspecs',
    '--glob-pathspecs',
    '--noglob-pathspecs',
    '--icase-pathspecs',
    '--no-optional-locks',
    '--no-advice',
    '-p',
    '--paginate',
  ],
  valued: [
    '-C',
    '-c',
    '--config-env',
    '--git-dir',
    '--work-tree',
    '--exec-path',
    '--namespace',
    '--super-prefix',
  ],
};

// Global options that change which repository, configuration or programs git uses.
const GLOBAL_CONCERNS: Readonly<Record<string, string>> = {
  '-c': 'sets git configuration on the command line, which can run commands (core.pager, core.fsmonitor)',
  '--config-env': 'sets git configuration from the environment, which can run commands',
  '--git-dir': 'points git at another repository (--git-dir)',
  '--work-tree': 'points git at another work tree (--work-tree)',
  '--exec-path': 'makes git run its helpers from another directory (--exec-path)',
  '--namespace': 'switches the git namespace',
  '--super-prefix': 'uses an internal git option (--super-prefix)',
  '-p': 'runs a pager (git --paginate)',
  '--paginate': 'runs a pager (git --paginate)',
};

const FORCE_PUSH = [
  '-f',
  '--force',
  '--force-with-lease',
  '--force-if-includes',
  '--mirror',
  '--delete',
  '-d',
  '--prune',
];

function pushConcern(args: readonly ShellWord[]): string {
  const split = splitArguments(args);
  const forced =
    split.options.some((option) =>
      FORCE_PUSH.some((name) => option.name === name || option.name.startsWith(`${name}=`)),
    ) || split.operands.some((operand) => operand.value === null || /^[+:]/.test(operand.value));
  return forced
    ? 'force-pushes or deletes remote history (git push --force)'
    : 'pushes commits to a remote (git push)';
}

// Subcommands with a reason more specific than the general one.
const SUBCOMMAND_CONCERNS: Readonly<Record<string, (args: readonly ShellWord[]) => string>> = {
  reset: (args) =>
    args.some((arg) => arg.value === '--hard' || arg.value === '--merge' || arg.value === '--keep')
      ? 'discards uncommitted changes (git reset --hard)'
      : 'moves the branch or unstages changes (git reset)',
  clean: () => 'deletes untracked files (git clean)',
  push: pushConcern,
  checkout: () => 'switches branches or overwrites files, which can discard changes (git checkout)',
  switch: () => 'switches branches (git switch)',
  restore: () => 'overwrites files, which can discard changes (git restore)',
  stash: () => 'stashes or drops uncommitted changes (git stash)',
  config: () =>
    'changes git configuration, which can make later git commands run programs (git config)',
  rebase: () => 'rewrites history (git rebase)',
  'filter-branch': () => 'rewrites history (git filter-branch)',
  'filter-repo': () => 'rewrites history (git filter-repo)',
  'update-ref': () => 'moves references directly (git update-ref)',
  gc: () => 'prunes unreachable objects (git gc)',
};

/**
 * Judge a `git` command line: its global options, then its subcommand.
 *
 * @example
 * judgeGit(words('-c core.pager=x log')).concerns; // ['sets git configuration on the command line, …']
 */
export function judgeGit(args: readonly ShellWord[]): GitJudgement {
  const scan = scanLeadingOptions(args, GLOBAL_OPTIONS);
  const concerns = [
    ...new Set(
      scan.options.flatMap((option) => {
        const concern = ownEntry(GLOBAL_CONCERNS, option.name);
        return concern === undefined ? [] : [concern];
      }),
    ),
  ];
  const workTree = scan.options
    .filter((option) => option.name === '-C')
    .map((option) => ({
      text: option.value ?? '-C',
      value: option.value,
      prefix: option.value ?? '',
      expands: false,
    }));
  if (scan.unknown !== undefined)
    concerns.push(`uses a git option the analysis does not know (${scan.unknown})`);
  const subcommand = args[scan.rest];
  const rest = args.slice(scan.rest + 1);
  if (subcommand === undefined) return { concerns, readOnly: null, workTree };
  const name = subcommand.value;
  if (name === null)
    return {
      concerns: [...concerns, 'runs a git subcommand computed at run time'],
      readOnly: null,
      workTree,
    };
  // Its options (`--output`, `--ext-diff`, `-O`…) are judged with the rest of a read-only
  // command, as git parses them.
  const spec = ownEntry(READ_ONLY_GIT_SUBCOMMANDS, name);
  if (spec !== undefined) return { concerns, readOnly: { spec, args: rest }, workTree };
  const specific = ownEntry(SUBCOMMAND_CONCERNS, name);
  const concern = specific?.(rest) ?? `changes the repository or talks to a remote (git ${name})`;
  return { concerns: [...concerns, concern], readOnly: null, workTree };
}
