import { POLICY_CASES } from '@tiny-claw/testkit';
import { describe, expect, it } from 'vitest';
import { judgeBash } from './__fixtures__/judge.js';

// The shared table of the policy's cases, which the CLI also runs through `policy check` and
// `run`: the risk policy itself gives every row its verdict.
describe('the risk policy on the shared policy table (sandbox off)', () => {
  it.each(POLICY_CASES.map((row) => [row.family, row.command, row.verdict] as const))(
    '%s: `%s` is %s',
    async (_family, command, verdict) => {
      expect((await judgeBash(command, { sandbox: 'off' })).verdict).toBe(verdict);
    },
  );
});
