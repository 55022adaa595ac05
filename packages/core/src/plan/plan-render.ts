import type { PlanSnapshot } from './plan-files.js';
import { planText } from './strings.js';
import { formatTodoItem } from './todo-grammar.js';

/**
 * What `plan` mode answers: PLAN.md, TODO.md and the next open item.
 *
 * @example
 * renderPlan(snapshot); // '# PLAN.md\n…\n\n# TODO.md\n…\n\nNext TODO: TC-001 Setup'
 */
export function renderPlan(snapshot: PlanSnapshot): string {
  return [
    snapshot.plan.trim(),
    snapshot.todo.trim(),
    planText.nextTodo(snapshot.next ? formatTodoItem(snapshot.next) : undefined),
  ].join('\n\n');
}

/**
 * What a `plan-act` run answers when every TODO item is already checked.
 *
 * @example
 * renderAllDone(snapshot); // '# PLAN.md\n…\n\n# TODO.md\n…\n\nAll TODO items are complete.'
 */
export function renderAllDone(snapshot: PlanSnapshot): string {
  return [snapshot.plan.trim(), snapshot.todo.trim(), planText.allDone].join('\n\n');
}

/**
 * The memory line recorded when `plan` mode shows an existing plan without calling the model:
 * where the plan lives and what comes next, instead of the whole plan.
 *
 * @example
 * renderPlanMemory(snapshot); // 'session_plan=/state/sessions/k/plan\nnext_todo=TC-002 Tests'
 */
export function renderPlanMemory(snapshot: PlanSnapshot): string {
  return `session_plan=${snapshot.dir}\nnext_todo=${snapshot.next ? formatTodoItem(snapshot.next) : 'none'}`;
}
