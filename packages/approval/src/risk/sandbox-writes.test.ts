import { describe, expect, it } from 'vitest';
import { judgeBash } from './__fixtures__/judge.js';

// A write outside the workdir fails under the sandbox, so approving it could not help: refused.
// Without the sandbox a person may approve it. When the caller does not say, it is refused.

const OUTSIDE_WRITES = [
  ['echo x > /tmp/out.txt', '`> /tmp/out.txt`'],
  ['ls >> ~/notes.md', '`>> ~/notes.md`'],
  ['cp a.txt /tmp/b.txt', '`/tmp/b.txt`'],
  ['tee ../sibling.txt', '`../sibling.txt`'],
  ['touch /etc/motd', '`/etc/motd`'],
] as const;

describe('writes outside the workdir', () => {
  it.each(OUTSIDE_WRITES)('`%s` is refused under the sandbox', async (command, part) => {
    const verdict = await judgeBash(command, { sandbox: 'bwrap' });
    expect(verdict.verdict).toBe('deny');
    expect(verdict.reasons).toContain(`writes outside the sandbox's writable area (${part})`);
  });

  it.each(OUTSIDE_WRITES)('`%s` asks without the sandbox', async (command, part) => {
    const verdict = await judgeBash(command, { sandbox: 'off' });
    expect(verdict.verdict).toBe('approval_required');
    expect(verdict.reasons).toContain(`writes outside the workdir (${part})`);
  });

  it.each(OUTSIDE_WRITES)(
    '`%s` is refused when the sandbox is not stated',
    async (command, part) => {
      const verdict = await judgeBash(command);
      expect(verdict.verdict).toBe('deny');
      expect(verdict.reasons).toContain(`writes outside the workdir (${part})`);
    },
  );

  it.each([
    ['echo x > .git/config', 'off'],
    ['echo x > .tiny-claw/sessions/x.json', 'off'],
    ['echo x > .git/hooks/pre-commit', 'bwrap'],
  ] as const)(
    '`%s` into .git or the state dir stays refused with the sandbox %s',
    async (command, sandbox) => {
      expect((await judgeBash(command, { sandbox })).verdict).toBe('deny');
    },
  );

  it('rejects a sandbox value it does not know with the values it accepts', async () => {
    await expect(judgeBash('ls', { sandbox: 'auto' as unknown as 'off' })).rejects.toThrow(
      /sandbox.*'bwrap' \| 'off'/,
    );
  });
});
