import { describe, expect, it } from 'vitest';
import { judgeBash, verdictsOf } from './__fixtures__/judge.js';

// The rules for rm, find and interpreters read options the way those programs do.

describe('rm', () => {
  const recursive = ['rm --rec', 'rm --re', 'rm -fR', 'rm -Rv'];
  it.each(recursive)(
    'reads `%s` as a recursive delete: of a subdirectory it asks, of the workdir root it is refused',
    async (spelling) => {
      expect(await judgeBash(`${spelling} x`)).toEqual({
        verdict: 'approval_required',
        reasons: [`deletes files recursively (\`${spelling} x\`)`],
      });
      expect(await judgeBash(`${spelling} .`)).toEqual({
        verdict: 'deny',
        reasons: [`deletes the whole workdir (\`${spelling} .\`)`],
      });
    },
  );

  it('reads --recursive after the operand as bash passes it to rm', async () => {
    expect((await judgeBash('rm . --recursive')).verdict).toBe('deny');
    expect((await judgeBash('rm x --recursive')).verdict).toBe('approval_required');
  });

  it('asks for a plain delete and names an option it cannot resolve', async () => {
    expect(await judgeBash('rm --re --ver .')).toMatchObject({ verdict: 'deny' });
    expect(await judgeBash('rm --in x')).toEqual({
      verdict: 'approval_required',
      reasons: ['deletes files (`rm --in x`)'],
    });
    expect((await judgeBash('rm --ver x')).reasons).toContain(
      'uses an abbreviated option that could mean --verbose or --version (--ver) (`rm --ver x`)',
    );
  });
});

describe('find', () => {
  it('checks the starting points after its leading options -H, -L, -P, -D and -O', async () => {
    expect(
      await verdictsOf([
        'find -H /etc -name x',
        'find -O3 -D tree /etc',
        'find -- /etc',
        'find src -type f',
      ]),
    ).toEqual({
      'find -H /etc -name x': 'approval_required',
      'find -O3 -D tree /etc': 'approval_required',
      'find -- /etc': 'approval_required',
      'find src -type f': 'allow',
    });
  });

  it('asks when it follows symbolic links or reads its starting points from a file', async () => {
    expect((await judgeBash('find -L . -name x')).reasons).toEqual([
      'follows symbolic links while walking directories, which may lead outside the workdir (find -L) (`find -L . -name x`)',
    ]);
    expect((await judgeBash('find -files0-from list')).verdict).toBe('approval_required');
  });
});

describe('interpreters', () => {
  it('see inline code behind a cluster of flags or an attached long flag', async () => {
    expect((await judgeBash("python3 -Ic 'print(1)'")).reasons).toEqual([
      "runs inline Python code (`python3 -Ic 'print(1)'`)",
    ]);
    expect((await judgeBash("perl -wle 'print 1'")).reasons).toEqual([
      "runs inline Perl code (`perl -wle 'print 1'`)",
    ]);
    expect((await judgeBash('node --eval=1')).reasons).toEqual([
      'runs inline JavaScript code (`node --eval=1`)',
    ]);
  });
});
