import type { ModeStrategy } from '../loop/mode-strategy.js';
import { msg } from '../messages.js';
import type { Logger } from '../observe/logger.js';
import type { PlanStore } from './plan-files.js';
import { createPlanPrompt } from './plan-prompts.js';
import { renderPlan, renderPlanMemory } from './plan-render.js';
import { planFilesFromResponse } from './plan-response.js';

/**
 * Mode `plan`: one step. An existing plan is shown without calling the model (it still counts as
 * one step); otherwise the model writes one — no tools are offered, a tool call ends the run — and
 * the missing PLAN.md / TODO.md are created.
 *
 * @example
 * const strategy = planModeStrategy(store.plans(session), logger);
 */
export function planModeStrategy(store: PlanStore, logger: Logger): ModeStrategy {
  let plan: string | undefined;
  return {
    async open() {
      const existing = await store.read();
      if (!existing) return { messages: [msg.system(createPlanPrompt())] };
      plan = existing.plan;
      return {
        stop: {
          reason: 'final',
          text: renderPlan(existing),
          memoryText: renderPlanMemory(existing),
          steps: 1,
        },
      };
    },
    // A plan-mode step offers no tools, so it never pauses for approval.
    reopen: async () => {},
    phase: () => 'plan',
    async afterText(state, text) {
      const snapshot = await store.createMissing(planFilesFromResponse(text, state.prompt));
      logger.info(`plan created dir=${snapshot.dir} todos=${snapshot.items.length}`);
      plan = snapshot.plan;
      return { stop: { reason: 'final', text: renderPlan(snapshot) } };
    },
    afterObservations: () => {},
    planText: () => plan,
  };
}
