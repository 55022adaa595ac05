import { describe, expect, it } from 'vitest';
import { childSession } from './child-session.js';
import { capReport, clue, formatReport } from './explorer-report.js';
import { EXPLORER_LIMITS } from './limits.js';

describe('the explorer report', () => {
  it('starts with the fixed header naming the child session and the stop reason', () => {
    expect(
      formatReport({ childSession: 'parent-a-explore-1', stopReason: 'final', body: 'found' }),
    ).toBe(
      '[Explorer Subagent Report]\nchild_session=parent-a-explore-1\nstop_reason=final\n\nfound',
    );
  });

  it('is cut to 4,000 characters keeping its beginning and end, with the original length', () => {
    const body = `${'h'.repeat(3000)}${'m'.repeat(6000)}${'t'.repeat(3000)}`;
    const report = formatReport({ childSession: 'c', stopReason: 'final', body });
    expect(report).toHaveLength(EXPLORER_LIMITS.reportMaxChars);
    expect(report.startsWith('[Explorer Subagent Report]\nchild_session=c')).toBe(true);
    expect(report).toMatch(
      /\.\.\.\[Explorer report truncated, original length 12\d\d\d chars\]\.\.\./,
    );
    expect(report.endsWith('t'.repeat(2000))).toBe(true);
    expect(capReport('short')).toBe('short');
  });

  it('keeps clues short, saying when one was cut', () => {
    expect(clue('read', 'abc')).toBe('tool=read\nabc');
    const long = clue('read', 'x'.repeat(2000));
    expect(long).toContain('...[tool observation truncated]...');
    expect(long.length).toBeLessThan(900);
  });
});

describe('the child session', () => {
  const parent = {
    key: 'cli-1a2b3c4d5e6f-default',
    source: 'cli' as const,
    externalId: 'x',
    displayName: 'default',
    workdir: '/repo',
  };

  it('is parent-<key>-explore-<12 hex>, a subagent session in the same workdir, new every time', () => {
    const a = childSession(parent);
    const b = childSession(parent);
    expect(a.key).toMatch(/^parent-cli-1a2b3c4d5e6f-default-explore-[0-9a-f]{12}$/);
    expect(a).toMatchObject({ source: 'subagent', workdir: '/repo' });
    expect(a.displayName).toMatch(/^explore:default:[0-9a-f]{12}$/);
    expect(a.key).not.toBe(b.key);
  });

  it('stays a valid directory name under a very long parent key', () => {
    const key = childSession({ ...parent, key: `cli-1a2b3c4d5e6f-${'é'.repeat(120)}` }).key;
    expect(Buffer.byteLength(key)).toBeLessThanOrEqual(255);
    expect(key).toMatch(/^parent-[0-9a-f]{24}-explore-[0-9a-f]{12}$/);
  });
});
