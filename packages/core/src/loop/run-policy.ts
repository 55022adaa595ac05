import type { Phase, RunMode, ToolPolicy } from './run-types.js';

/**
 * The phase of step `step` (1-based) in `mode`. In plan-act the first step plans only when no plan
 * exists yet.
 *
 * @example
 * phaseForStep('think', 3); // 'think'
 */
export function phaseForStep(
  mode: RunMode,
  step: number,
  options: { planRequired?: boolean } = {},
): Phase {
  switch (mode) {
    case 'act':
      return 'act';
    case 'think':
      return 'think';
    case 'plan':
      return 'plan';
    case 'plan-act':
      return step === 1 && options.planRequired ? 'plan' : 'act';
  }
}

/**
 * Tools are offered only when acting; thinking and planning steps send none.
 *
 * @example
 * toolPolicyForPhase('plan'); // 'none'
 */
export function toolPolicyForPhase(phase: Phase): ToolPolicy {
  return phase === 'act' ? 'auto' : 'none';
}
