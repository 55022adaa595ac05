/**
 * One command of the shared policy table and the verdict the built-in policy gives it, in a
 * workdir whose state dir is `.tiny-claw` inside it, with the bash sandbox off and no kept rules.
 *
 * @example
 * const row: PolicyCase = { command: 'rm -rf build', verdict: 'approval_required', family: 'a recursive delete' };
 */
export interface PolicyCase {
  readonly command: string;
  readonly verdict: 'allow' | 'approval_required' | 'deny';
  /** The family of rules the row exercises, for test names. */
  readonly family: string;
}

/**
 * The commands of the policy's own tests, one table for every judge of a call: the approval
 * package checks its risk policy against it, and the CLI checks that `tiny-claw policy check` and
 * `tiny-claw run` agree on every row. Paths are relative to the workdir (`/tmp/…` and `~` are
 * outside it), so the table holds in any temporary workdir.
 *
 * @example
 * for (const row of POLICY_CASES) expect((await judge(row.command)).verdict).toBe(row.verdict);
 */
export const POLICY_CASES: readonly PolicyCase[] = [
  { command: 'ls > out.txt', verdict: 'allow', family: 'a redirection' },
  { command: 'echo hi >> notes.md', verdict: 'allow', family: 'a redirection' },
  { command: 'ls 2> err.log', verdict: 'allow', family: 'a redirection' },
  { command: 'git status > status.txt 2>&1', verdict: 'allow', family: 'a redirection' },
  { command: 'cd src && ls > listing.txt', verdict: 'allow', family: 'a redirection' },
  { command: 'ls > .git/info/exclude', verdict: 'deny', family: 'a redirection' },
  { command: 'ls > .tiny-claw/x', verdict: 'deny', family: 'a redirection' },
  { command: 'ls > $OUT', verdict: 'approval_required', family: 'a redirection' },
  { command: 'ls > *.txt', verdict: 'approval_required', family: 'a redirection' },
  {
    command: 'echo x > /dev/tcp/10.0.0.1/80',
    verdict: 'approval_required',
    family: 'a redirection',
  },
  { command: 'echo x > .env', verdict: 'approval_required', family: 'a redirection' },
  { command: 'cd .. && ls > out.txt', verdict: 'approval_required', family: 'a redirection' },
  { command: 'echo x > /tmp/out.txt', verdict: 'approval_required', family: 'a redirection' },
  { command: 'cp a.txt /tmp/b.txt', verdict: 'approval_required', family: 'a redirection' },
  { command: 'tee ../sibling.txt', verdict: 'approval_required', family: 'a redirection' },
  { command: 'touch /etc/motd', verdict: 'approval_required', family: 'a redirection' },
  { command: 'echo x > .git/config', verdict: 'deny', family: 'a redirection' },
  { command: 'rm -rf build', verdict: 'approval_required', family: 'a recursive delete' },
  { command: 'rm -r dist', verdict: 'approval_required', family: 'a recursive delete' },
  { command: 'rm -r -f build', verdict: 'approval_required', family: 'a recursive delete' },
  { command: 'rm --recursive build', verdict: 'approval_required', family: 'a recursive delete' },
  { command: 'rm -fr build', verdict: 'approval_required', family: 'a recursive delete' },
  { command: 'rm -rf ./build/', verdict: 'approval_required', family: 'a recursive delete' },
  { command: 'rm -rf -- build', verdict: 'approval_required', family: 'a recursive delete' },
  { command: 'rm -rf build dist', verdict: 'approval_required', family: 'a recursive delete' },
  { command: 'rm -rf *', verdict: 'approval_required', family: 'a recursive delete' },
  { command: 'rm -rf *.log', verdict: 'approval_required', family: 'a recursive delete' },
  {
    command: 'cd src && rm -rf generated',
    verdict: 'approval_required',
    family: 'a recursive delete',
  },
  { command: 'find build -delete', verdict: 'approval_required', family: 'a recursive delete' },
  { command: 'rm -rf .', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf ./', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf build/..', verdict: 'deny', family: 'a recursive delete' },
  { command: 'find . -delete', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf "$PWD"', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf $(pwd)', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf $DIR', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf ..', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf /', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf ~', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf $HOME', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf ~/x', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf /tmp/x', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf ../sibling', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf .git', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf .git/objects', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf .tiny-claw', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf .tiny*', verdict: 'deny', family: 'a recursive delete' },
  { command: 'rm -rf */..', verdict: 'deny', family: 'a recursive delete' },
  { command: 'cd .. && rm -rf w', verdict: 'deny', family: 'a recursive delete' },
  { command: 'ls | xargs rm -rf', verdict: 'deny', family: 'a recursive delete' },
  { command: 'find build -exec rm -rf {} +', verdict: 'deny', family: 'a recursive delete' },
  { command: 'timeout 5 rm -rf .', verdict: 'deny', family: 'a recursive delete' },
  { command: 'git branch', verdict: 'allow', family: 'a recursive delete' },
  { command: 'git branch --show-current', verdict: 'allow', family: 'git branch and git -C' },
  { command: 'git branch -a', verdict: 'allow', family: 'git branch and git -C' },
  { command: 'git branch --list "feat/*"', verdict: 'allow', family: 'git branch and git -C' },
  { command: 'git branch --contains=HEAD', verdict: 'allow', family: 'git branch and git -C' },
  { command: 'git -C . branch', verdict: 'allow', family: 'git branch and git -C' },
  { command: 'git --no-pager branch -a', verdict: 'allow', family: 'git branch and git -C' },
  { command: 'git branch -d x', verdict: 'approval_required', family: 'git branch and git -C' },
  { command: 'git branch --del x', verdict: 'approval_required', family: 'git branch and git -C' },
  { command: 'git branch newname', verdict: 'approval_required', family: 'git branch and git -C' },
  { command: 'git branch -m a b', verdict: 'approval_required', family: 'git branch and git -C' },
  { command: 'git -C . status', verdict: 'allow', family: 'git branch and git -C' },
  { command: 'ls | xargs stat', verdict: 'allow', family: 'git branch and git -C' },
  { command: 'ls | xargs -n1 basename', verdict: 'allow', family: 'xargs feeding a command' },
  {
    command: 'find src -type f -print0 | xargs -0 stat',
    verdict: 'allow',
    family: 'xargs feeding a command',
  },
  { command: 'ls | xargs wc -l', verdict: 'approval_required', family: 'xargs feeding a command' },
  {
    command: 'git ls-files | xargs grep -n foo',
    verdict: 'approval_required',
    family: 'xargs feeding a command',
  },
  { command: 'ls | xargs cat', verdict: 'approval_required', family: 'xargs feeding a command' },
  {
    command: 'ls | xargs -I{} sh -c "cat {}"',
    verdict: 'approval_required',
    family: 'xargs feeding a command',
  },
  {
    command: 'ls | xargs sed -i s/a/b/',
    verdict: 'approval_required',
    family: 'xargs feeding a command',
  },
  {
    command: 'ls | xargs -a list.txt stat',
    verdict: 'approval_required',
    family: 'xargs feeding a command',
  },
  {
    command: 'cat list.txt | xargs stat',
    verdict: 'approval_required',
    family: 'xargs feeding a command',
  },
  {
    command: 'echo (whoami)',
    verdict: 'approval_required',
    family: 'a line that does not parse as bash',
  },
  {
    command: 'ls (pwd)',
    verdict: 'approval_required',
    family: 'a line that does not parse as bash',
  },
  {
    command: 'echo hi &&& ls',
    verdict: 'approval_required',
    family: 'a line that does not parse as bash',
  },
  {
    command: 'if true; then ls',
    verdict: 'approval_required',
    family: 'a line that does not parse as bash',
  },
  {
    command: 'echo "unterminated',
    verdict: 'approval_required',
    family: 'a line that does not parse as bash',
  },
  {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    command: 'head -c16 ${SOME_PATH}',
    verdict: 'approval_required',
    family: 'a path computed at run time',
  },
  { command: 'cat $F', verdict: 'approval_required', family: 'a path computed at run time' },
  { command: 'cp $A $B', verdict: 'approval_required', family: 'a path computed at run time' },
  { command: 'wc -l "$X"', verdict: 'approval_required', family: 'a path computed at run time' },
  {
    command: 'git diff -- $F',
    verdict: 'approval_required',
    family: 'a path computed at run time',
  },
  {
    command: 'cat $(cat list.txt)',
    verdict: 'approval_required',
    family: 'a path computed at run time',
  },
  {
    command: 'if [ -f package.json ]; then cat package.json; fi',
    verdict: 'allow',
    family: 'conditionals, expansions with defaults and substitutions of read-only commands',
  },
  {
    command: 'if test -d src; then ls src; else echo none; fi',
    verdict: 'allow',
    family: 'conditionals, expansions with defaults and substitutions of read-only commands',
  },
  {
    command: '[ -d build ] && ls build',
    verdict: 'allow',
    family: 'conditionals, expansions with defaults and substitutions of read-only commands',
  },
  {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    command: 'echo ${HOME:-/tmp}',
    verdict: 'allow',
    family: 'conditionals, expansions with defaults and substitutions of read-only commands',
  },
  {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    command: 'ls ${DIR:-.}',
    verdict: 'allow',
    family: 'conditionals, expansions with defaults and substitutions of read-only commands',
  },
  {
    command: 'echo $(git rev-parse HEAD)',
    verdict: 'allow',
    family: 'conditionals, expansions with defaults and substitutions of read-only commands',
  },
  {
    command: 'echo "$(pwd)"',
    verdict: 'allow',
    family: 'conditionals, expansions with defaults and substitutions of read-only commands',
  },
  {
    command: 'for f in src/*.ts; do echo "$f"; done',
    verdict: 'allow',
    family: 'conditionals, expansions with defaults and substitutions of read-only commands',
  },
  {
    command: 'case $x in a) echo a;; esac',
    verdict: 'allow',
    family: 'conditionals, expansions with defaults and substitutions of read-only commands',
  },
  { command: 'npm test', verdict: 'approval_required', family: 'everyday commands' },
  {
    command: 'npm test && rm -rf build',
    verdict: 'approval_required',
    family: 'everyday commands',
  },
  {
    command: 'curl https://example.com',
    verdict: 'approval_required',
    family: 'everyday commands',
  },
  { command: 'git push --force', verdict: 'approval_required', family: 'everyday commands' },
  { command: 'git status', verdict: 'allow', family: 'everyday commands' },
  { command: 'ls -la', verdict: 'allow', family: 'everyday commands' },
  { command: 'cat README.md', verdict: 'allow', family: 'everyday commands' },
  { command: 'grep -rn TODO src', verdict: 'approval_required', family: 'everyday commands' },
  {
    command: 'for f in a.txt b.txt; do wc -l "$f"; done',
    verdict: 'allow',
    family: 'loops and read',
  },
  { command: 'for f in *.md; do wc -l "$f"; done', verdict: 'allow', family: 'loops and read' },
  {
    command: 'for f in a b; do rm -rf "$f"; done',
    verdict: 'approval_required',
    family: 'loops and read',
  },
  { command: 'for d in . build; do rm -rf "$d"; done', verdict: 'deny', family: 'loops and read' },
  { command: 'for PATH in .; do ls; done', verdict: 'approval_required', family: 'loops and read' },
  {
    command: 'while read -r f; do echo "$f"; done < list.txt',
    verdict: 'allow',
    family: 'loops and read',
  },
  {
    command: 'while IFS= read -r line; do echo "$line"; done < list.txt',
    verdict: 'allow',
    family: 'loops and read',
  },
  {
    command: 'while read -r f; do wc -l "$f"; done < list.txt',
    verdict: 'approval_required',
    family: 'loops and read',
  },
  { command: 'read -r PATH < list.txt', verdict: 'approval_required', family: 'loops and read' },
  {
    command: 'git merge-base main HEAD',
    verdict: 'allow',
    family: 'git merge-base and its commit ids',
  },
  {
    command: 'git diff $(git merge-base main HEAD)',
    verdict: 'allow',
    family: 'git merge-base and its commit ids',
  },
  {
    command: 'git log $(git merge-base main HEAD)..HEAD',
    verdict: 'allow',
    family: 'git merge-base and its commit ids',
  },
  {
    command: 'git diff $(git rev-parse HEAD)',
    verdict: 'approval_required',
    family: 'git merge-base and its commit ids',
  },
];
