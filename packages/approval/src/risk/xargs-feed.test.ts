import { describe, expect, it } from 'vitest';
import { judgeBash } from './__fixtures__/judge.js';

// xargs feeding a read-only command the names a listing stage printed reads only when no name can
// change what the receiver does: the receiver has no option that is not harmless (or the names
// cannot start with `-`), and a receiver that reads contents asks where a glob standing for the
// names would, since the names may be files that hold secrets.

const FED_SAFELY = [
  'ls | xargs stat',
  'ls | xargs ls -ld',
  'ls | xargs -n1 basename',
  'ls src | xargs -r stat',
  'git ls-files | xargs dirname',
  'git ls-files | xargs -d "\\n" stat',
  'find . -name "*.ts" | xargs ls -l',
  'find src -type f -print0 | xargs -0 stat',
  'find . -name "*.ts" | xargs -n 10 -P 2 echo',
];

const STILL_ASKS = [
  // a receiver with an option a name like `--files0-from=.env` could turn on
  'ls | xargs wc -l',
  'git ls-files | xargs grep -n foo',
  'find . -name "*.ts" | xargs wc -l',
  'ls | xargs -0 sort',
  'ls | xargs tree',
  // a receiver that reads contents: the names may be files that hold secrets, as with `cat *`
  'find . -name "*.ts" -print0 | xargs -0 wc -l',
  'ls | xargs cat',
  // receivers that write or run
  'ls | xargs uniq',
  'ls | xargs command',
  'ls | xargs -I{} sh -c "cat {}"',
  'ls | xargs bash -c "cat $0"',
  'ls | xargs env stat',
  'ls | xargs eval',
  'ls | xargs sed -i s/a/b/',
  // xargs options that change where names come from or ask a terminal
  'ls | xargs -a list.txt stat',
  'ls | xargs -o stat',
  'ls | xargs -p stat',
  'ls | xargs -I{} stat {}',
  'ls | xargs -E stop stat',
  // a stage that is not a workdir listing, or not read-only itself
  'cat list.txt | xargs stat',
  'ls /etc | xargs stat',
  'find . -exec true \\; | xargs stat',
  'find . -fprint out.txt | xargs stat',
  'xargs stat < list.txt',
  'echo -rf | xargs stat',
  'ls | xargs ./stat',
];

describe('xargs feeding a read-only command', () => {
  it.each(FED_SAFELY)('allows names no argument can misuse: %s', async (command) => {
    expect(await judgeBash(command)).toEqual({ verdict: 'allow', reasons: [] });
  });

  it.each(STILL_ASKS)('still asks or refuses: %s', async (command) => {
    expect((await judgeBash(command)).verdict).not.toBe('allow');
  });

  it('refuses a recursive delete fed by xargs as before', async () => {
    expect((await judgeBash('ls | xargs rm -rf')).verdict).toBe('deny');
  });

  it('says why a contents reader fed by a listing asks', async () => {
    expect((await judgeBash('find . -print0 | xargs -0 cat')).reasons).toEqual([
      'reads files that may hold secrets: the files find lists and xargs passes on (`xargs -0 cat`)',
    ]);
  });
});
