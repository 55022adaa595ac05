import type { ModeStrategy } from '../loop/mode-strategy.js';
import type { PlanProgress, RunState } from '../loop/run-state.js';
import type { Stop } from '../loop/stop.js';
import { type Message, msg } from '../messages.js';
import type { Logger } from '../observe/logger.js';
import type { PlanSnapshot, PlanStore } from './plan-files.js';
import { createPlanPrompt, executeTodoPrompt, replanPrompt } from './plan-prompts.js';
import { renderAllDone, renderPlan } from './plan-render.js';
import { planFilesFromResponse, revisedPlanFiles } from './plan-response.js';
import { planStepStatus, statusReason } from './plan-status.js';
import { collapseWhitespace, formatTodoItem } from './todo-grammar.js';

/** A failed tool call is named in a blocker, not pasted into it. */
const TOOL_ERROR_MAX_CHARS = 200;

/**
 * Mode `plan-act`: plan first when the session has no plan, then execute the TODO items one at a
 * time. Each item is handed to the model as a prompt; its `PLAN_STEP_STATUS:` verdict checks the
 * item and moves on (`completed`, unless a tool failed during the item), records a blocker and
 * stops (`blocked`), or asks for a revised plan (`needs_replan`). Planning counts as a step. The
 * run's position in the plan lives in `state.plan`; the plan itself in the session's plan store.
 *
 * @example
 * const strategy = planActStrategy(store.plans(session), logger);
 */
export function planActStrategy(store: PlanStore, logger: Logger): ModeStrategy {
  let snapshot: PlanSnapshot | undefined;

  const progress = (state: RunState): PlanProgress => {
    state.plan ??= {};
    return state.plan;
  };

  /** Make the next open item current; its execute prompt, or undefined when all are done. */
  const beginNext = (state: RunState): Message | undefined => {
    const plan = progress(state);
    const next = snapshot?.next;
    delete plan.toolError;
    if (!snapshot || !next) {
      delete plan.currentItem;
      return undefined;
    }
    plan.currentItem = next.id;
    logger.info(`plan todo started ${formatTodoItem(next)}`);
    return msg.user(executeTodoPrompt(snapshot, next));
  };

  /** Store the plan from a planning reply: create the missing files, or replace them on a replan. */
  const applyPlan = async (state: RunState, text: string): Promise<PlanSnapshot> => {
    const plan = progress(state);
    const previous = plan.planning === 'replan' ? snapshot : undefined;
    delete plan.planning;
    if (previous) {
      const revised = revisedPlanFiles(previous, text);
      if (!revised) {
        logger.warn('plan revision had no <PLAN_MD> or <TODO_MD>; the current plan is kept');
        return previous;
      }
      snapshot = await store.replace(revised);
      logger.info(`plan revised dir=${snapshot.dir} todos=${snapshot.items.length}`);
      return snapshot;
    }
    snapshot = await store.createMissing(planFilesFromResponse(text, state.prompt));
    logger.info(`plan created dir=${snapshot.dir} todos=${snapshot.items.length}`);
    return snapshot;
  };

  /** The model's verdict on the current item. */
  const settle = async (
    state: RunState,
    text: string,
  ): Promise<{ stop: Stop } | { message: Message }> => {
    const plan = progress(state);
    const item = snapshot?.items.find((candidate) => candidate.id === plan.currentItem);
    if (!item || !snapshot) return { stop: { reason: 'final', text } };
    const stepsLeft = state.step < state.maxSteps;
    const status = planStepStatus(text);
    if (status === 'completed' && plan.toolError === undefined) {
      snapshot = await store.markDone(item.id);
      delete plan.currentItem;
      logger.info(`plan todo completed ${item.id}`);
      const message = stepsLeft ? beginNext(state) : undefined;
      return message ? { message } : { stop: { reason: 'final', text } };
    }
    if (status === 'blocked' || status === 'completed') {
      const reason = statusReason(text, status === 'completed' ? plan.toolError : undefined);
      snapshot = await store.appendBlocker(item.id, reason);
      logger.info(`plan todo blocked ${item.id} reason=${reason}`);
      return { stop: { reason: 'final', text } };
    }
    if (status === 'needs_replan') {
      // No step left to plan in: the item stays open and the next run asks again.
      if (!stepsLeft) return { stop: { reason: 'max_steps_exhausted', text } };
      plan.planning = 'replan';
      delete plan.currentItem;
      logger.info(`plan replan requested by ${item.id}`);
      return { message: msg.user(replanPrompt(snapshot, item, statusReason(text))) };
    }
    return { stop: { reason: 'final', text } };
  };

  return {
    async open(state) {
      snapshot = await store.read();
      if (!snapshot) {
        progress(state).planning = 'create';
        return { messages: [msg.system(createPlanPrompt())] };
      }
      const message = beginNext(state);
      // Nothing left to do is answered from the files alone: no model call, no memory line.
      if (!message) {
        return { stop: { reason: 'final', text: renderAllDone(snapshot), remember: false } };
      }
      return { messages: [message] };
    },

    async reopen() {
      // The run paused inside an item; its id in state.plan finds it again in the current files.
      snapshot = await store.read();
    },

    phase: (state) => (state.plan?.planning ? 'plan' : 'act'),

    async afterText(state, text, phase) {
      if (phase !== 'plan') return settle(state, text);
      const planned = await applyPlan(state, text);
      // Planning is a step like any other: with none left, the run ends with the plan written.
      if (state.step >= state.maxSteps) {
        return { stop: { reason: 'max_steps_exhausted', text: renderPlan(planned) } };
      }
      const message = beginNext(state);
      if (!message) return { stop: { reason: 'final', text: renderAllDone(planned) } };
      return { message };
    },

    afterObservations(state, observations) {
      const plan = progress(state);
      if (!plan.currentItem) return;
      for (const observation of observations) {
        if (observation.isError !== true) continue;
        const firstLine = collapseWhitespace(observation.content.split('\n', 1)[0] ?? '');
        const detail = `${observation.name ?? 'tool'}: ${firstLine}`;
        plan.toolError =
          detail.length > TOOL_ERROR_MAX_CHARS
            ? `${detail.slice(0, TOOL_ERROR_MAX_CHARS - 1)}…`
            : detail;
      }
    },

    planText: () => snapshot?.plan,
  };
}
