import type { Phase, RunMode, ToolPolicy } from './run-types.js';

/**
 * The phase of step `step` (1-based) in `mode`. In plan-act the first step plans only when no plan
 * exists yet (`planRequired`), and any step plans when the model asked for a revised plan
 * (`replan`, after `PLAN_STEP_STATUS: needs_replan`).
 *
 * @example
 * phaseForStep('think', 3); // 'think'
 * phaseForStep('plan-act', 4, { replan: true }); // 'plan'
 */
export function phaseForStep(
  mode: RunMode,
  step: number,
  options: { planRequired?: boolean; replan?: boolean } = {},
): Phase {
  switch (mode) {
    case 'act':
      return 'act';
    case 'think':
      return 'think';
    case 'plan':
      return 'plan';
    case 'plan-act':
      return (step === 1 && options.planRequired) || options.replan ? 'plan' : 'act';
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
