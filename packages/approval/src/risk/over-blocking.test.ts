import { describe, expect, it } from 'vitest';
import { judgeBash } from './__fixtures__/judge.js';

// Commands that asked although they provably cannot harm the workspace, now allowed; each table
// has a twin of near misses that still ask or are refused.

describe('a redirection into a plain file of the workdir is allowed', () => {
  it.each([
    'ls > out.txt',
    'echo hi >> notes.md',
    'ls 2> err.log',
    'ls &> all.log',
    'ls >| out.txt',
    'git status > status.txt 2>&1',
    'cd src && ls > listing.txt',
    "cat <<'EOF' > notes.md\n$(not run)\nEOF",
  ])('`%s` is allowed', async (command) => {
    expect(await judgeBash(command)).toEqual({ verdict: 'allow', reasons: [] });
  });

  it.each([
    ['ls > .git/info/exclude', 'deny', 'writes into the .git directory (`> .git/info/exclude`)'],
    ['ls > .tiny-claw/x', 'deny', 'writes into a protected path (`> .tiny-claw/x`)'],
    ['ls > /tmp/x', 'deny', 'writes outside the workdir (`> /tmp/x`)'],
    ['ls > ../x', 'deny', 'writes outside the workdir (`> ../x`)'],
    ['ls > $OUT', 'approval_required', 'writes to a path computed at run time (`> $OUT`)'],
    [
      'ls > *.txt',
      'approval_required',
      'writes a file named by a glob through a redirection (`> *.txt`)',
    ],
    [
      'echo x > /dev/tcp/10.0.0.1/80',
      'approval_required',
      'opens a network connection (`> /dev/tcp/10.0.0.1/80`)',
    ],
    ['echo x > .env', 'approval_required', '.env files hold secrets and settings (`> .env`)'],
    [
      'cd .. && ls > out.txt',
      'approval_required',
      'writes a file through a redirection after leaving the workdir (`> out.txt`)',
    ],
  ] as const)('`%s` is judged as before: %s', async (command, verdict, reason) => {
    const judged = await judgeBash(command);
    expect(judged.verdict).toBe(verdict);
    expect(judged.reasons).toContain(reason);
  });
});
