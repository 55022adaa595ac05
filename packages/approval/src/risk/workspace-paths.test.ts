import { describe, expect, it } from 'vitest';
import { literalWord, type ShellWord } from './shell/shell-word.js';
import { locate, type WorkspacePaths } from './workspace-paths.js';

const paths: WorkspacePaths = { workdir: '/w', protectedPaths: ['/w/.state'], home: '/home/me' };

function dynamic(text: string, prefix: string): ShellWord {
  return { text, value: null, prefix, expands: false };
}

const places = (word: ShellWord, bases: readonly string[] = ['/w']) =>
  locate(word, bases, paths).map((location) => location.place);

describe('locate', () => {
  it('places relative, absolute, home and .git paths', () => {
    expect(places(literalWord('src/a.ts'))).toEqual(['inside']);
    expect(places(literalWord('../x'))).toEqual(['outside']);
    expect(places(literalWord('/etc/hosts'))).toEqual(['outside']);
    expect(places(literalWord('~/.bashrc'))).toEqual(['outside']);
    expect(places(literalWord('~root/x'))).toEqual(['outside']);
    expect(places(literalWord('sub/.GIT/config'))).toEqual(['git']);
    expect(places(literalWord('.state/a.json'))).toEqual(['protected']);
    expect(places(literalWord('/dev/null'))).toEqual(['device']);
    expect(places(literalWord('/dev/tcp/127.0.0.1/80'))).toEqual(['network']);
  });

  it('places a relative path once for every directory it may be relative to', () => {
    expect(places(literalWord('config'), ['/w', '/w/.git'])).toEqual(['inside', 'git']);
  });

  it('places a path computed at run time by its literal directory when that already decides', () => {
    expect(places(dynamic('$HOME/.bashrc', ''))).toEqual(['outside']);
    expect(places(dynamic('.git/hooks/$X', '.git/hooks/'))).toEqual(['git']);
    expect(places(dynamic('/etc/$X', '/etc/'))).toEqual(['outside']);
    expect(places(dynamic('src/$X', 'src/'))).toEqual(['unknown']);
    expect(places(dynamic('$STATE/a.json', ''))).toEqual(['unknown']);
    expect(places(dynamic('<(ls)', ''))).toEqual(['device']);
  });

  it('places a glob that could match .git in .git', () => {
    const glob = (value: string): ShellWord => ({
      text: value,
      value,
      prefix: value,
      expands: true,
    });
    expect(places(glob('.gi?/config'))).toEqual(['git']);
    expect(places(glob('src/*.ts'))).toEqual(['inside']);
    expect(places(glob('/etc/*'))).toEqual(['outside']);
  });
});
