import { describe, expect, it } from 'vitest';
import { judgeBash, verdictsOf } from './__fixtures__/judge.js';

// The options of git's read-only subcommands are judged as git parses them: a subcommand's own
// options take unique prefixes, log, show and diff and the revision and diff options do not, and
// global options are read by exact name.

describe('read-only git subcommands, by their options', () => {
  it('asks for --output whatever the subcommand, and refuses it into .git', async () => {
    expect(
      await verdictsOf([
        'git diff --output=out.txt',
        'git log --output out.txt',
        'git show --output=out.txt',
        'git blame --output=out.txt a.txt',
        'git shortlog --output=out.txt',
        'git log --output=.git/hooks/post-checkout',
      ]),
    ).toEqual({
      'git diff --output=out.txt': 'approval_required',
      'git log --output out.txt': 'approval_required',
      'git show --output=out.txt': 'approval_required',
      'git blame --output=out.txt a.txt': 'approval_required',
      'git shortlog --output=out.txt': 'approval_required',
      'git log --output=.git/hooks/post-checkout': 'deny',
    });
  });

  it('asks for an abbreviation log, show and diff would not take, naming it', async () => {
    expect((await judgeBash('git log --outp=x')).reasons).toEqual([
      'uses an option git log does not have (--outp) (`git log --outp=x`)',
    ]);
    expect((await judgeBash('git diff --out x')).reasons).toEqual([
      'uses an option git diff does not have (--out) (`git diff --out x`)',
    ]);
  });

  it('asks for options that run configured programs, and allows turning them off', async () => {
    expect(
      await verdictsOf([
        'git diff --ext-diff',
        'git log -p --textconv',
        'git log --show-signature',
        'git diff --no-ext-diff --no-textconv',
      ]),
    ).toEqual({
      'git diff --ext-diff': 'approval_required',
      'git log -p --textconv': 'approval_required',
      'git log --show-signature': 'approval_required',
      'git diff --no-ext-diff --no-textconv': 'allow',
    });
  });

  it('checks the files -O, --contents, -S, --ignore-revs-file and --exclude-from read', async () => {
    expect(
      await verdictsOf([
        'git diff -Oorder.txt',
        'git diff -O/etc/passwd',
        'git blame --cont /etc/passwd a.txt',
        'git blame --contents .env a.txt',
        'git blame -S /etc/revs a.txt',
        'git blame --ignore-revs /etc/revs a.txt',
        'git ls-files --exclude-f=/etc/x',
      ]),
    ).toEqual({
      'git diff -Oorder.txt': 'allow',
      'git diff -O/etc/passwd': 'approval_required',
      'git blame --cont /etc/passwd a.txt': 'approval_required',
      'git blame --contents .env a.txt': 'approval_required',
      'git blame -S /etc/revs a.txt': 'approval_required',
      'git blame --ignore-revs /etc/revs a.txt': 'approval_required',
      'git ls-files --exclude-f=/etc/x': 'approval_required',
    });
  });

  it('resolves the abbreviations status, blame, ls-files, describe and shortlog take', async () => {
    expect(
      await verdictsOf([
        'git status --porc',
        'git status --short --bra',
        'git blame --incr a.txt',
        'git describe --alw',
        'git shortlog --summ HEAD',
        'git ls-files --exc=x',
        'git describe --al',
      ]),
    ).toEqual({
      'git status --porc': 'allow',
      'git status --short --bra': 'allow',
      'git blame --incr a.txt': 'allow',
      'git describe --alw': 'allow',
      'git shortlog --summ HEAD': 'allow',
      'git ls-files --exc=x': 'approval_required',
      'git describe --al': 'approval_required',
    });
  });

  it('allows ordinary reading commands', async () => {
    const commands = [
      'git log --oneline -5',
      'git log -n 3 --stat -- src',
      'git diff --cached --stat',
      'git show HEAD~1 --name-only',
      'git log --format=%H --author=me',
      'git rev-parse --show-toplevel',
    ];
    expect(await verdictsOf(commands)).toEqual(
      Object.fromEntries(commands.map((command) => [command, 'allow'])),
    );
  });
});

describe("git's global options", () => {
  it('takes them by exact name only, so an abbreviation asks like any unknown option', async () => {
    expect((await judgeBash('git --git-d=/srv/other/.git log')).reasons[0]).toBe(
      'uses a git option the analysis does not know (--git-d=/srv/other/.git) (`git --git-d=/srv/other/.git log`)',
    );
    expect(
      await verdictsOf(['git --no-pa log', 'git --work-t=/tmp status', 'git --exec-p=/tmp log']),
    ).toEqual({
      'git --no-pa log': 'approval_required',
      'git --work-t=/tmp status': 'approval_required',
      'git --exec-p=/tmp log': 'approval_required',
    });
  });
});
