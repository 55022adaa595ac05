import type { PlanFiles } from './plan-response.js';
import { PLAN_STEP_STATUS } from './plan-status.js';
import { planText } from './strings.js';
import { formatTodoItem, type TodoItem } from './todo-grammar.js';

/**
 * The system message that asks for a new plan: no tools, two tagged Markdown documents.
 *
 * @example
 * messages.push(msg.system(createPlanPrompt()));
 */
export function createPlanPrompt(): string {
  return planText.createPlan;
}

/**
 * The user message that starts one TODO item: execute only it, with tools, and report with the
 * `PLAN_STEP_STATUS:` marker. The current plan files are included so a resumed run needs nothing else.
 *
 * @example
 * messages.push(msg.user(executeTodoPrompt(snapshot, snapshot.next)));
 */
export function executeTodoPrompt(files: PlanFiles, item: Pick<TodoItem, 'id' | 'text'>): string {
  return [
    planText.executeIntro,
    '',
    planText.currentTodo(formatTodoItem(item)),
    '',
    planText.executeStatusRules(PLAN_STEP_STATUS),
    '',
    planText.planHeading,
    files.plan.trim(),
    '',
    planText.todoHeading,
    files.todo.trim(),
  ].join('\n');
}

/**
 * The user message that asks for a revised plan after the model reported `needs_replan`: the
 * current files, the reason, and the rule to keep completed items with their IDs.
 *
 * @example
 * messages.push(msg.user(replanPrompt(snapshot, current, 'the API changed')));
 */
export function replanPrompt(
  files: PlanFiles,
  item: Pick<TodoItem, 'id' | 'text'>,
  reason: string,
): string {
  return [
    planText.replanIntro,
    planText.replanReason(formatTodoItem(item), reason || planText.noBlockerDetails),
    '',
    planText.currentPlanHeading,
    files.plan.trim(),
    '',
    planText.currentTodoHeading,
    files.todo.trim(),
    '',
    planText.replanRules,
  ].join('\n');
}
