import { describe, expect, it } from 'vitest';
import { everyVerdict, judgeBash, verdictsOf } from './__fixtures__/judge.js';

// `git branch` only reads when it lists or shows branches: with no operand, with an option that
// makes it list (its operands are then patterns), or `--show-current`. Any option that deletes,
// renames, copies, forces or sets tracking asks, spelled out or abbreviated as git's parser takes
// it, and an operand without a listing option names a branch to create.

const LISTS_BRANCHES = [
  'git branch',
  'git branch --show-current',
  'git branch -a',
  'git branch -r',
  'git branch --list',
  'git branch -v',
  'git branch -vv',
  'git branch --contains HEAD',
  'git branch --no-merged main',
  'git branch --list "feat/*"',
  'git branch -a --list "feat/*"',
  'git branch --sort=-committerdate --format="%(refname:short)"',
  'git branch --points-at HEAD',
  'git branch --contains=HEAD',
  'git branch --lis',
  'git -C . branch',
  'git --no-pager branch -a',
];

const CHANGES_BRANCHES = [
  'git branch -d x',
  'git branch -D x',
  'git branch --delete x',
  'git branch --del x',
  'git branch -vd x',
  'git branch newname',
  'git branch newname HEAD~1',
  'git branch -a newname',
  'git branch -q newname',
  'git branch --show-current newname',
  'git branch -m a b',
  'git branch -M a b',
  'git branch --mov a b',
  'git branch -c a b',
  'git branch -C a b',
  'git branch --set-upstream-to=origin/main',
  'git branch -u origin/main',
  'git branch --set-up origin/main',
  'git branch --unset-upstream',
  'git branch -f main HEAD~3',
  'git branch --edit-description',
  'git branch -t x origin/x',
  'git branch --create-reflog x',
  'git branch --co x',
  'git branch --output=x',
  'git branch $(echo -D) main',
  'git branch "$NAME"',
  'git -c core.editor=vi branch --edit-description',
  'git -C /tmp branch',
];

describe('git branch', () => {
  it.each(LISTS_BRANCHES)('allows listing or showing branches: %s', async (command) => {
    expect((await judgeBash(command)).verdict).toBe('allow');
  });

  it.each(CHANGES_BRANCHES)('asks when it may change a branch: %s', async (command) => {
    expect((await judgeBash(command)).verdict).toBe('approval_required');
  });

  it('names what the command would change', async () => {
    expect((await judgeBash('git branch --del x')).reasons).toEqual([
      'deletes a branch (git branch) (`git branch --del x`)',
    ]);
    expect((await judgeBash('git branch newname')).reasons).toEqual([
      'creates a branch (git branch name) (`git branch newname`)',
    ]);
  });

  it('still refuses a listing that writes into .git', async () => {
    expect(await verdictsOf(['git branch > .git/HEAD'])).toEqual(
      everyVerdict(['git branch > .git/HEAD'], 'deny'),
    );
  });
});

describe('git merge-base and the commit ids it prints', () => {
  it.each([
    'git merge-base main HEAD',
    'git merge-base --all main HEAD',
    'git merge-base --fork-point origin/main',
    'git merge-base --is-ancestor a b',
    'git merge-base --octo a b c',
    'git diff $(git merge-base main HEAD)',
    'git diff "$(git merge-base main HEAD)"',
    'git log $(git merge-base main HEAD)..HEAD',
    'git log --oneline $(git merge-base --all main HEAD)~1..HEAD',
    'git diff $(git merge-base main HEAD) -- src',
    'git diff --stat $(git merge-base origin/main HEAD) HEAD',
    'git diff $(git merge-base main HEAD) > changes.diff',
  ])('allows %s', async (command) => {
    expect(await judgeBash(command)).toEqual({ verdict: 'allow', reasons: [] });
  });

  it.each([
    // The substitution is not only git merge-base with literal words.
    ['git diff $(git merge-base $X HEAD)', 'has arguments computed at run time'],
    ['git diff $(git merge-base main HEAD; cat list)', 'has arguments computed at run time'],
    ['git diff $(git merge-base -c x=y a b)', 'has arguments computed at run time'],
    ['git diff $(git rev-parse HEAD)', 'has arguments computed at run time'],
    ['git diff `git merge-base main HEAD`', 'has arguments computed at run time'],
    ['git diff $(git merge-base main HEAD)$X', 'has arguments computed at run time'],
    // The ids would be spliced into an option.
    ['git diff -$(git merge-base a b)', 'uses an option computed at run time'],
    ['git diff --output=$(git merge-base a b)', 'writes its output to a file'],
    // Relative to a directory that may be outside the workdir.
    ['cd .. && git diff $(git merge-base main HEAD)', 'changes directory outside the workdir'],
  ])('asks for %s', async (command, reason) => {
    const judged = await judgeBash(command);
    expect(judged.verdict).toBe('approval_required');
    expect(judged.reasons.join('\n')).toContain(reason);
  });

  it('still refuses a recursive delete of the ids', async () => {
    expect((await judgeBash('rm -rf $(git merge-base a b)')).verdict).toBe('deny');
  });
});
