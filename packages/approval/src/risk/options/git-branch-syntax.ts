import { optionTable } from './option-table.js';
import type { ParsedArguments } from './parsed-arguments.js';

// `git branch` (git 2.39) lists, shows, creates, deletes, renames, copies and configures branches,
// by which options it is given. Its parser is git's parse-options: unique prefixes of long options
// count (`--del` is `--delete`, `--set-up` is `--set-upstream-to`), so every option that changes
// anything is listed here with a reason, and a prefix that could mean more than one option is
// ambiguous and asks. Options it does not have ask too.
const CHANGES = (what: string) => ({ ask: `${what} (git branch)` });

/**
 * The options of `git branch`: the listing ones are harmless, every other one asks.
 *
 * @example
 * GIT_BRANCH_OPTIONS.long.get('delete')?.def.rule.ask; // 'deletes a branch (git branch)'
 */
export const GIT_BRANCH_OPTIONS = optionTable([
  '-h',
  '-v --verbose',
  '-q --quiet',
  '-a --all',
  '-r --remotes',
  '-l --list',
  '--show-current',
  '-i --ignore-case',
  '--contains[=]',
  '--no-contains[=]',
  '--with[=]',
  '--without[=]',
  '--merged[=]',
  '--no-merged[=]',
  '--points-at=',
  '--sort=',
  '--format=',
  '--abbrev[=]',
  '--no-abbrev',
  '--color[=]',
  '--no-color',
  '--column[=]',
  '--no-column',
  ['-d --delete', CHANGES('deletes a branch')],
  ['-D', CHANGES('deletes a branch')],
  ['-m --move', CHANGES('renames a branch')],
  ['-M', CHANGES('renames a branch')],
  ['-c --copy', CHANGES('copies a branch')],
  ['-C', CHANGES('copies a branch')],
  ['-f --force', CHANGES('forces a branch change')],
  ['-t --track[=]', CHANGES('sets up tracking for a new branch')],
  ['--no-track', CHANGES('creates a branch')],
  ['-u: --set-upstream-to=', CHANGES("sets a branch's upstream")],
  ['--set-upstream', CHANGES("sets a branch's upstream")],
  ['--unset-upstream', CHANGES("removes a branch's upstream")],
  ['--edit-description', CHANGES("edits a branch's description in an editor")],
  ['--create-reflog', CHANGES('creates a branch')],
  ['--recurse-submodules', CHANGES('creates branches in submodules')],
  // Negations: of a listing option harmless, of a changing one asked like the option.
  ...[
    'verbose',
    'quiet',
    'remotes',
    'all',
    'list',
    'show-current',
    'ignore-case',
    'sort',
    'format',
    'points-at',
  ].map((name) => `--no-${name}`),
  ...[
    'set-upstream',
    'set-upstream-to',
    'unset-upstream',
    'delete',
    'move',
    'copy',
    'create-reflog',
    'edit-description',
    'force',
    'recurse-submodules',
  ].map((name): [string, { ask: string }] => [`--no-${name}`, CHANGES('changes branches')]),
]);

// Options that make `git branch` list, so its operands are patterns to list by. `-a` and `-r`
// only choose which branches; with an operand git refuses them, which asks here like a creation.
const LISTS = new Set([
  '-l',
  '-v',
  '--contains',
  '--no-contains',
  '--with',
  '--without',
  '--merged',
  '--no-merged',
  '--points-at',
]);

/**
 * Why this `git branch` command line is not read-only, beyond its options: with operands and no
 * option that makes it list, it creates a branch named by the first operand (`git branch x`), and
 * `--show-current` takes none.
 *
 * @example
 * gitBranchVeto(parsed('newname')); // 'creates a branch (git branch name)'
 */
export function gitBranchVeto(parsed: ParsedArguments): string | null {
  if (parsed.operands.length === 0) return null;
  // An option that changes branches already asks for itself.
  if (parsed.options.some((option) => Object.keys(option.def.rule).length > 0)) return null;
  const lists = parsed.options.some((option) => LISTS.has(option.def.id));
  return lists ? null : 'creates a branch (git branch name)';
}
