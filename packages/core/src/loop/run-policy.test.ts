import { describe, expect, it } from 'vitest';
import { phaseForStep, toolPolicyForPhase } from './run-policy.js';

describe('run policy', () => {
  it('maps each mode to its phase per step', () => {
    expect(phaseForStep('act', 1)).toBe('act');
    expect(phaseForStep('think', 4)).toBe('think');
    expect(phaseForStep('plan', 1)).toBe('plan');
    expect(phaseForStep('plan-act', 1, { planRequired: true })).toBe('plan');
    expect(phaseForStep('plan-act', 1, { planRequired: false })).toBe('act');
    expect(phaseForStep('plan-act', 2, { planRequired: true })).toBe('act');
  });

  it('offers tools only in the act phase', () => {
    expect(toolPolicyForPhase('act')).toBe('auto');
    expect(toolPolicyForPhase('think')).toBe('none');
    expect(toolPolicyForPhase('plan')).toBe('none');
  });
});
