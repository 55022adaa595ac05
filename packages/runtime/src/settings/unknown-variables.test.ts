import { describe, expect, it } from 'vitest';
import {
  closestKnownName,
  findUnknownVariables,
  KNOWN_VARIABLE_NAMES,
} from './unknown-variables.js';

describe('closestKnownName', () => {
  it('suggests the setting one edit away for common typos', () => {
    expect(closestKnownName('TINY_CLAW_ENABLE_TOOLS')).toBe('TINY_CLAW_ENABLED_TOOLS');
    expect(closestKnownName('TINY_CLAW_STATEDIR')).toBe('TINY_CLAW_STATE_DIR');
    expect(closestKnownName('TINY_CLAW_MAXTOKENS')).toBe('TINY_CLAW_MAX_TOKENS');
    expect(closestKnownName('FEISHU_APPID')).toBe('FEISHU_APP_ID');
  });

  it('always names some known setting, even for a name far from all of them', () => {
    expect(KNOWN_VARIABLE_NAMES).toContain(closestKnownName('TINY_CLAW_ZZZZZZZZZZZZZZZZZZZZ'));
  });
});

describe('findUnknownVariables', () => {
  it('reports each unknown name once, for the strongest source, in name order', () => {
    const warnings = findUnknownVariables({ TINY_CLAW_B: '1', TINY_CLAW_A: '1' }, [
      { source: 'env-file', path: '/f', values: { TINY_CLAW_B: '2', FEISHU_Z: '3' } },
    ]);
    expect(warnings.map((w) => [w.name, w.source])).toEqual([
      ['TINY_CLAW_A', 'env'],
      ['TINY_CLAW_B', 'env'],
      ['FEISHU_Z', 'env-file'],
    ]);
  });

  it('never carries a value, so a secret set under a misspelt name stays out of the warning', () => {
    const warnings = findUnknownVariables({ FEISHU_APP_SECRT: 'very-secret-value' }, []);
    expect(JSON.stringify(warnings)).not.toContain('very-secret-value');
  });
});
