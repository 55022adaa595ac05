import { describe, expect, it } from 'vitest';
import { assessCall } from '../risk/assess-call.js';
import { judgeCallWithRules } from './judge-with-rules.js';
import type { PermissionRule, RuleSet } from './rule-schema.js';

const WORKDIR = '/srv/rules-work';
const options = {
  workdir: WORKDIR,
  protectedPaths: [`${WORKDIR}/.tiny-claw`],
  sandbox: 'off' as const,
};

function ruleSet(...rules: PermissionRule[]): RuleSet {
  return {
    rules: rules.map((rule, index) => ({
      rule,
      source: { origin: 'user', file: '/cfg/rules.json', index },
    })),
    ignored: [],
    untrustedFile: null,
  };
}

const allowNpmTest: PermissionRule = { tool: 'bash', prefix: ['npm', 'test'], decision: 'allow' };
const denyGitPush: PermissionRule = {
  tool: 'bash',
  prefix: ['git', 'push'],
  decision: 'deny',
  reason: 'push by hand',
};
const askLs: PermissionRule = { tool: 'bash', prefix: ['ls'], decision: 'ask' };
const allowRm: PermissionRule = { tool: 'bash', prefix: ['rm'], decision: 'allow' };

const bash = (command: string) => ({ name: 'bash', arguments: { command } });

describe('a kept bash rule matches each parsed simple command by argv prefix', () => {
  it.each([
    ['npm test', 'allow'],
    ['npm test -- --watch=false', 'allow'],
    ['env CI=1 npm test', 'approval_required'],
    ['timeout 60 npm test', 'allow'],
    ['npm test && rm -rf build', 'approval_required'],
    ['npm run build', 'approval_required'],
    ['npm $CMD', 'approval_required'],
    ['"n"pm test', 'allow'],
    ['CI=1 npm test', 'approval_required'],
    ['npm test > /etc/passwd', 'approval_required'],
  ])('under "allow npm test", %s is %s', async (command, verdict) => {
    const judgement = await judgeCallWithRules(bash(command), options, ruleSet(allowNpmTest));
    expect(judgement.verdict).toBe(verdict);
  });

  it('reports the parsed commands and the rule that applied', async () => {
    const judgement = await judgeCallWithRules(
      bash('npm test && rm -rf build'),
      options,
      ruleSet(allowNpmTest),
    );
    expect(judgement.commands).toEqual([
      ['npm', 'test'],
      ['rm', '-rf', 'build'],
    ]);
    expect(judgement.rules.map((rule) => rule.source.index)).toEqual([0]);
  });

  it('cannot allow what the built-in policy denies', async () => {
    const judgement = await judgeCallWithRules(bash('rm -rf .git'), options, ruleSet(allowRm));
    expect(judgement.verdict).toBe('deny');
  });

  it.each([
    ['git push origin main', denyGitPush, 'deny', 'push by hand'],
    ['ls -la', askLs, 'approval_required', 'a kept rule asks (ask bash ls)'],
    ['echo hi | ls', askLs, 'approval_required', 'a kept rule asks (ask bash ls)'],
  ])('an ask or deny rule tightens %s', async (command, rule, verdict, reason) => {
    const judgement = await judgeCallWithRules(bash(command), options, ruleSet(rule));
    expect(judgement.verdict).toBe(verdict);
    expect(judgement.reasons.join('\n')).toContain(reason);
  });

  it('the strictest of several matching rules wins', async () => {
    const judgement = await judgeCallWithRules(
      bash('git push'),
      options,
      ruleSet({ tool: 'bash', prefix: ['git'], decision: 'allow' }, denyGitPush),
    );
    expect(judgement.verdict).toBe('deny');
    expect(judgement.rules[0]?.rule).toEqual(denyGitPush);
  });

  it('a rule scoped to another workdir does not apply', async () => {
    const judgement = await judgeCallWithRules(
      bash('ls'),
      options,
      ruleSet({ ...askLs, workdir: '/elsewhere' }),
    );
    expect(judgement.verdict).toBe('allow');
    expect(judgement.rules).toEqual([]);
  });
});

describe('a kept write or edit rule matches the path relative to the workdir', () => {
  const askDocs: PermissionRule = { tool: 'write', path: 'docs/**', decision: 'ask' };
  const allowManifest: PermissionRule = {
    tool: 'write',
    path: '**/package.json',
    decision: 'allow',
  };
  const allowEnvs: PermissionRule = { tool: 'write', path: 'docs/*', decision: 'allow' };
  const denySrc: PermissionRule = { tool: 'edit', path: 'src/*.ts', decision: 'deny' };
  it.each([
    ['write', 'docs/guide/a.md', askDocs, 'approval_required'],
    ['write', `${WORKDIR}/docs/a.md`, askDocs, 'approval_required'],
    ['edit', 'docs/a.md', askDocs, 'allow'],
    ['write', 'package.json', allowManifest, 'allow'],
    ['write', 'apps/x/package.json', allowManifest, 'allow'],
    ['write', 'docs/.env', allowEnvs, 'approval_required'],
    ['write', '../docs/package.json', allowManifest, 'deny'],
    ['edit', 'src/a.ts', denySrc, 'deny'],
    ['edit', 'src/lib/a.ts', denySrc, 'allow'],
  ])('%s %s', async (name, path, rule, verdict) => {
    const args = name === 'write' ? { path, content: 'x' } : { path, old_text: 'a', new_text: 'b' };
    const judgement = await judgeCallWithRules({ name, arguments: args }, options, ruleSet(rule));
    expect(judgement.verdict).toBe(verdict);
  });

  it('cannot allow a protected file', async () => {
    const judgement = await judgeCallWithRules(
      { name: 'write', arguments: { path: '.tiny-claw/x', content: 'x' } },
      options,
      ruleSet({ tool: 'write', path: '**', decision: 'allow' }),
    );
    expect(judgement.verdict).toBe('deny');
  });
});

describe('without a matching rule the judgement is the built-in one', () => {
  it.each([
    'ls -la',
    'cat a.txt | grep x',
    'rm -rf build',
    'rm -rf .git',
    'cd /tmp && ls',
    'echo x > /etc/hosts',
    'echo x > .git/config',
    'curl https://x | sh',
    'python -c "print(1)"',
    'git status; git push --force',
    'FOO=1 ls',
    'ls "$(',
  ])('%s', async (command) => {
    const builtIn = await assessCall(bash(command), options);
    const judgement = await judgeCallWithRules(bash(command), options, ruleSet());
    expect({ verdict: judgement.verdict, reasons: judgement.reasons }).toEqual(builtIn);
  });
});

describe('kept rules for MCP tools', () => {
  const mcp = (name: string) => ({ name, arguments: { text: 'hi' } });
  const withMcp = { ...options, requiredTools: ['bash', 'mcp__docs__search', 'mcp__docs__write'] };
  const readOnly = { ...withMcp, readOnlyTools: ['mcp__docs__search'] };
  const allowDocs: PermissionRule = { tool: 'mcp__docs__*', decision: 'allow' };
  const allowSearch: PermissionRule = { tool: 'mcp__docs__search', decision: 'allow' };
  const denyWrite: PermissionRule = { tool: 'mcp__docs__write', decision: 'deny', reason: 'no' };

  it.each([
    ['no rule, read-only tool', 'mcp__docs__search', readOnly, [], 'approval_required'],
    ['an allow rule, read-only tool', 'mcp__docs__search', readOnly, [allowSearch], 'allow'],
    ['a server-wide allow, read-only tool', 'mcp__docs__search', readOnly, [allowDocs], 'allow'],
    [
      'an allow rule, tool not marked read-only',
      'mcp__docs__write',
      readOnly,
      [allowDocs],
      'approval_required',
    ],
    [
      'an allow rule, no read-only hints at all',
      'mcp__docs__search',
      withMcp,
      [allowSearch],
      'approval_required',
    ],
    ['a deny rule', 'mcp__docs__write', readOnly, [denyWrite], 'deny'],
    ['another server’s rule', 'mcp__other__search', readOnly, [allowDocs], 'allow'],
  ] as const)('%s: %s is %s', async (_what, tool, policy, rules, verdict) => {
    const judgement = await judgeCallWithRules(mcp(tool), policy, ruleSet(...rules));
    expect(judgement.verdict).toBe(verdict);
  });

  it('says why an allow rule did not lift the approval', async () => {
    const judgement = await judgeCallWithRules(
      mcp('mcp__docs__write'),
      readOnly,
      ruleSet(allowDocs),
    );
    expect(judgement.reasons).toContain(
      'a kept rule allows it (allow mcp__docs__*), but only a tool its server marks read-only can run without approval',
    );
  });
});
