import { describe, expect, it } from 'vitest';
import { judgeBash, STATE_DIR, WORKDIR } from './__fixtures__/judge.js';

// A recursive delete that stays inside the workdir, below its root and clear of .git and the
// state dir asks like any delete; one that reaches further is refused whatever the sandbox.

describe('a recursive delete inside the workdir asks', () => {
  it.each([
    'rm -rf build',
    'rm -r dist',
    'rm -r -f build',
    'rm --recursive build',
    'rm --recursive --force build',
    'rm -fr build',
    'rm -R build',
    'rm -rf ./build/',
    'rm -rf src/generated',
    'rm -rf -- build',
    'rm -rf build dist',
    'rm -rf *',
    'rm -rf build/*',
    'rm -rf *.log',
    `rm -rf ${WORKDIR}/build`,
    'cd src && rm -rf generated',
    'find build -delete',
    'find build dist -name "*.o" -delete',
  ])('`%s` asks', async (command) => {
    const verdict = await judgeBash(command);
    expect(verdict.verdict).toBe('approval_required');
    expect(verdict.reasons.join('\n')).toMatch(/deletes (files recursively|what it finds)/);
  });

  it('asks for find . -delete run from a subdirectory', async () => {
    expect((await judgeBash('find . -delete', { cwd: 'build' })).verdict).toBe('approval_required');
  });
});

describe('a recursive delete that reaches the workdir root, .git, the state dir, home or outside is refused', () => {
  it.each([
    ['rm -rf .', 'deletes the whole workdir (`rm -rf .`)'],
    ['rm -rf ./', 'deletes the whole workdir (`rm -rf ./`)'],
    ['rm -r -f .', 'deletes the whole workdir (`rm -r -f .`)'],
    ['rm -rf build/..', 'deletes the whole workdir (`rm -rf build/..`)'],
    [`rm -rf ${WORKDIR}`, `deletes the whole workdir (\`rm -rf ${WORKDIR}\`)`],
    ['rm -rf build .', 'deletes the whole workdir (`rm -rf build .`)'],
    ['find . -delete', 'deletes the whole workdir (`find . -delete`)'],
    ['find -delete', 'deletes the whole workdir (`find -delete`)'],
    ['rm -rf "$PWD"', 'deletes recursively a path computed at run time (`rm -rf "$PWD"`)'],
    ['rm -rf $(pwd)', 'deletes recursively a path computed at run time (`rm -rf $(pwd)`)'],
    ['rm -rf `pwd`', 'deletes recursively a path computed at run time (`rm -rf `pwd``)'],
    ['rm -rf $DIR', 'deletes recursively a path computed at run time (`rm -rf $DIR`)'],
    ['rm -r $OPTS build', 'deletes recursively a path computed at run time (`rm -r $OPTS build`)'],
    ['rm -rf ..', 'deletes a directory that holds the workdir (`rm -rf ..`)'],
    ['rm -rf build/../..', 'deletes a directory that holds the workdir (`rm -rf build/../..`)'],
    ['rm -rf {build,..}', 'deletes a directory that holds the workdir (`rm -rf {build,..}`)'],
    ['rm -rf /', 'deletes a directory that holds the workdir (`rm -rf /`)'],
    ['rm -rf ~', 'deletes the home directory (`rm -rf ~`)'],
    ['rm -rf $HOME', 'deletes the home directory (`rm -rf $HOME`)'],
    ['rm -rf ~/x', 'deletes recursively outside the workdir (`rm -rf ~/x`)'],
    ['rm -rf /tmp/x', 'deletes recursively outside the workdir (`rm -rf /tmp/x`)'],
    ['rm -rf ../sibling', 'deletes recursively outside the workdir (`rm -rf ../sibling`)'],
    ['rm -rf /*', 'deletes recursively outside the workdir (`rm -rf /*`)'],
    ['rm -rf .git', 'deletes recursively in the .git directory (`rm -rf .git`)'],
    ['rm -rf .git/objects', 'deletes recursively in the .git directory (`rm -rf .git/objects`)'],
    ['rm -rf .*', 'deletes recursively in the .git directory (`rm -rf .*`)'],
    ['rm -rf .tiny-claw', 'deletes recursively in a protected path (`rm -rf .tiny-claw`)'],
    [
      'rm -rf .tiny*',
      'deletes recursively with a glob that may match a protected path (`rm -rf .tiny*`)',
    ],
    [
      'rm -rf */..',
      'deletes recursively with a glob that may reach the workdir root or outside (`rm -rf */..`)',
    ],
    [
      'cd .. && rm -rf w',
      'deletes recursively relative to a directory outside the workdir (`rm -rf w`)',
    ],
    [
      'cd $D; rm -rf x',
      'deletes recursively relative to a directory outside the workdir (`rm -rf x`)',
    ],
    [
      'cd; rm -rf x',
      'deletes recursively relative to a directory outside the workdir (`rm -rf x`)',
    ],
    ['ls | xargs rm -rf', 'deletes recursively paths supplied at run time (`xargs rm -rf`)'],
    [
      'xargs -I{} rm -rf {}',
      'deletes recursively paths supplied at run time (`xargs -I{} rm -rf {}`)',
    ],
    [
      'find build -exec rm -rf {} +',
      'deletes recursively paths supplied at run time (`rm -rf {}`)',
    ],
    ["bash -c 'rm -rf ..'", 'deletes a directory that holds the workdir (`rm -rf ..`)'],
    ['timeout 5 rm -rf .', 'deletes the whole workdir (`timeout 5 rm -rf .`)'],
  ])('`%s` is refused: %s', async (command, reason) => {
    const verdict = await judgeBash(command);
    expect(verdict.verdict).toBe('deny');
    expect(verdict.reasons).toContain(reason);
  });

  it('refuses a recursive delete of a protected path wherever it is', async () => {
    const verdict = await judgeBash(`rm -rf ${STATE_DIR}/sessions`);
    expect(verdict.verdict).toBe('deny');
    expect(verdict.reasons[0]).toMatch(/^deletes recursively in a protected path/);
  });
});

describe('the sandbox does not change what a recursive delete may reach', () => {
  it.each([
    ['rm -rf build', 'bwrap', 'approval_required'],
    ['rm -rf build', 'off', 'approval_required'],
    ['rm -rf /tmp/x', 'bwrap', 'deny'],
    ['rm -rf /tmp/x', 'off', 'deny'],
    ['rm -rf ~/x', 'bwrap', 'deny'],
    ['rm -rf ~/x', 'off', 'deny'],
    ['rm -rf ..', 'off', 'deny'],
    ['rm -rf .', 'off', 'deny'],
  ] as const)('`%s` with the sandbox %s: %s', async (command, sandbox, verdict) => {
    expect((await judgeBash(command, { sandbox })).verdict).toBe(verdict);
  });
});
