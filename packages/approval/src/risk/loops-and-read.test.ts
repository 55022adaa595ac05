import { describe, expect, it } from 'vitest';
import { judgeBash } from './__fixtures__/judge.js';

// Loops over read-only commands: a `for` loop over literal words is judged once per word, with
// the word in place of the variable; `read` into a plain variable only sets that variable.

describe('a for loop over literal words is judged with each word in place', () => {
  it.each([
    'for f in a.txt b.txt; do wc -l "$f"; done',
    'for f in *.md; do wc -l "$f"; done',
    'for f in src/*.ts; do echo "$f"; done',
    'for f in a b; do echo $f; done',
    'for f in "a b"; do cat "$f"; done',
    'for x in 1 2 3; do echo "n=$x"; done',
    'for f in a.txt; do cat "$f" > "$f.bak"; done',
    'for d in src docs; do ls "$d"; done',
    'for f in a; do for f in b; do cat "$f"; done; done',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    'for f in a.txt b.txt; do head -n 3 "${f}"; done',
  ])('allows %s', async (command) => {
    expect(await judgeBash(command)).toEqual({ verdict: 'allow', reasons: [] });
  });

  it.each([
    [
      'for f in a.txt .env; do cat "$f"; done',
      'approval_required',
      "reads files that may hold secrets (`'.env'`)",
    ],
    [
      'for f in /etc/passwd; do cat "$f"; done',
      'approval_required',
      "reads outside the workdir (`'/etc/passwd'`)",
    ],
    [
      'for f in a b; do rm -rf "$f"; done',
      'approval_required',
      "deletes files recursively (`rm -rf 'a'`)",
    ],
    ['for d in . build; do rm -rf "$d"; done', 'deny', "deletes the whole workdir (`rm -rf '.'`)"],
    [
      'for f in --files0-from=x; do wc -l "$f"; done',
      'approval_required',
      "reads the files named in another file, which the analysis cannot check (wc --files0-from) (`wc -l '--files0-from=x'`)",
    ],
  ] as const)('judges each word: %s is %s', async (command, verdict, reason) => {
    const judged = await judgeBash(command);
    expect(judged.verdict).toBe(verdict);
    expect(judged.reasons).toContain(reason);
  });

  it.each([
    ['a computed list', 'for f in $(ls); do wc -l "$f"; done'],
    ['a body that assigns the variable', 'for f in a; do f=/etc/passwd; cat "$f"; done'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    ['a transformed variable', 'for f in a.txt; do cat "${f%.txt}.md"; done'],
    ['a value split into several words', 'for f in "a b"; do cat $f; done'],
    ['a glob joined to other text', 'for f in *.txt; do cat "x$f"; done'],
  ])('asks when it cannot follow %s', async (_what, command) => {
    expect((await judgeBash(command)).verdict).toBe('approval_required');
  });

  it.each([
    'for PATH in .; do ls; done',
    'for IFS in x; do ls; done',
    'for LD_PRELOAD in ./x.so; do ls; done',
    'for HOME in /tmp; do ls; done',
  ])('asks for a loop over a variable the shell reads: %s', async (command) => {
    const judged = await judgeBash(command);
    expect(judged.verdict).toBe('approval_required');
    expect(judged.reasons.join('\n')).toContain('sets a shell variable that later commands read');
  });
});

describe('read into a plain variable', () => {
  it.each([
    'while read -r f; do echo "$f"; done < list.txt',
    'while IFS= read -r line; do echo "$line"; done < list.txt',
    'git ls-files | while read -r f; do echo "$f"; done',
    'read -ra words < list.txt',
    'read -p "name? " name',
    'read -d "" -r f',
    'read -- a b',
  ])('allows %s', async (command) => {
    expect(await judgeBash(command)).toEqual({ verdict: 'allow', reasons: [] });
  });

  it.each([
    ['an upper-case variable', 'read -r PATH < x'],
    ['IFS itself', 'read -r IFS'],
    ['an upper-case array', 'read -a PATH'],
    ['a computed name', 'read $X'],
    ['an option read does not have', 'read -x f'],
    ['an upper-case name after --', 'read -- a B'],
    ['a computed IFS', 'IFS=$X read -r a'],
    ['another variable set for it', 'PATH=/x read -r a'],
  ])('asks for %s: %s', async (_what, command) => {
    expect((await judgeBash(command)).verdict).toBe('approval_required');
  });

  it('judges what the loop body does with the line as computed', async () => {
    const judged = await judgeBash('while read -r f; do wc -l "$f"; done < list.txt');
    expect(judged.verdict).toBe('approval_required');
    expect(judged.reasons.join('\n')).toContain('computed at run time');
  });
});
