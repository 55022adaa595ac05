import { describe, expect, it } from 'vitest';
import { judgeCallWithRules } from './judge-with-rules.js';
import { proposeRules } from './propose-rules.js';
import { NO_RULES, type PermissionRule, type RuleSet } from './rule-schema.js';

const WORKDIR = '/srv/propose-work';
const options = {
  workdir: WORKDIR,
  protectedPaths: [`${WORKDIR}/.tiny-claw`],
  sandbox: 'off' as const,
};

const bash = (command: string) => ({ name: 'bash', arguments: { command } });

function withRules(rules: readonly PermissionRule[]): RuleSet {
  return {
    rules: rules.map((rule, index) => ({
      rule,
      source: { origin: 'session', file: 's', index },
    })),
    ignored: [],
    untrustedFile: null,
  };
}

describe('an "always" answer is proposed as rules matching exactly the commands that asked', () => {
  it.each([
    ['npm test', [['npm', 'test']]],
    ['make -j4 check', [['make', '-j4', 'check']]],
    ['rm -rf build', [['rm', '-rf', 'build']]],
    [
      'npm test && rm -rf build',
      [
        ['npm', 'test'],
        ['rm', '-rf', 'build'],
      ],
    ],
    ['ls && npm test', [['npm', 'test']]],
    ['npm test; npm test', [['npm', 'test']]],
    ['timeout 60 pytest -q', [['pytest', '-q']]],
  ])('%s → %j', async (command, prefixes) => {
    const proposal = await proposeRules(bash(command), options, NO_RULES);
    expect(
      proposal.rules?.map((rule) =>
        rule.tool === 'bash' ? rule.prefix : 'path' in rule ? rule.path : rule.tool,
      ),
    ).toEqual(prefixes);
    expect(proposal.rules?.every((rule) => rule.decision === 'allow')).toBe(true);
  });

  it.each(['npm test', 'rm -rf build', 'npm test && rm -rf build'])(
    'the proposed rules let %s run without asking, and nothing wider',
    async (command) => {
      const proposal = await proposeRules(bash(command), options, NO_RULES);
      const rules = withRules(proposal.rules ?? []);
      expect((await judgeCallWithRules(bash(command), options, rules)).verdict).toBe('allow');
      // A command that was not answered still asks.
      expect(
        (await judgeCallWithRules(bash(`${command} && npm publish`), options, rules)).verdict,
      ).toBe('approval_required');
    },
  );

  it.each([
    ['a word computed at run time', 'npm run $TARGET'],
    ['an environment assignment', 'CI=1 npm test'],
    ['a line that does not parse as bash', 'echo (whoami)'],
    ['a redirection that asks', 'npm test > ../out.txt'],
    ['a command built from a substitution', '$(cat cmd.txt)'],
  ])('no rule is proposed for %s', async (_what, command) => {
    const proposal = await proposeRules(bash(command), options, NO_RULES);
    expect(proposal).toEqual({ rules: null, why: 'unmatchable' });
  });

  it.each([
    ['allowed', 'ls -la'],
    ['denied', 'rm -rf .'],
    ['denied', 'git push --force && rm -rf .git'],
  ])('a call the policy has %s is not proposed for: %s', async (_what, command) => {
    const proposal = await proposeRules(bash(command), options, NO_RULES);
    expect(proposal).toEqual({ rules: null, why: 'not_asking' });
  });

  it('scopes the rules to the workdir when asked', async () => {
    const proposal = await proposeRules(bash('npm test'), options, NO_RULES, { workdir: WORKDIR });
    expect(proposal.rules).toEqual([
      { tool: 'bash', prefix: ['npm', 'test'], decision: 'allow', workdir: WORKDIR },
    ]);
  });
});

describe('an "always" answer for a file call is kept for that exact path', () => {
  const write = (path: string) => ({ name: 'write', arguments: { path, content: 'x' } });
  const sandboxed = { ...options, sandbox: 'bwrap' as const };

  it.each([
    ['.env', '.env'],
    ['./web/../web/package.json', 'web/package.json'],
    [`${WORKDIR}/.github/workflows/ci.yml`, '.github/workflows/ci.yml'],
  ])('write %s → path %s', async (path, kept) => {
    const proposal = await proposeRules(write(path), options, NO_RULES);
    expect(proposal.rules).toEqual([{ tool: 'write', path: kept, decision: 'allow' }]);
  });

  it.each([['a path with glob characters', 'conf/*/.env']])(
    'no rule is proposed for %s',
    async (_what, path) => {
      const proposal = await proposeRules(write(path), options, NO_RULES);
      expect(proposal).toEqual({ rules: null, why: 'unmatchable' });
    },
  );

  it.each([
    ['a .git path, which is denied', '.git/config'],
    ['an ordinary file, which is allowed', 'docs/guide.md'],
  ])('nothing is proposed for %s', async (_what, path) => {
    const proposal = await proposeRules(write(path), sandboxed, NO_RULES);
    expect(proposal).toEqual({ rules: null, why: 'not_asking' });
  });
});
