import { planText } from './strings.js';
import { collapseWhitespace } from './todo-grammar.js';

/** The marker a model prints to report on the current TODO item. */
export const PLAN_STEP_STATUS = 'PLAN_STEP_STATUS:';

/** What a model may report about the current TODO item. */
export const planStepStatuses = ['completed', 'blocked', 'needs_replan'] as const;

/** One value of {@link planStepStatuses}. */
export type PlanStepStatus = (typeof planStepStatuses)[number];

/** A blocker is a one-line note in TODO.md, not a transcript. */
export const BLOCKER_REASON_MAX_CHARS = 500;

const MARKER = /PLAN_STEP_STATUS:\s*(completed|blocked|needs_replan)\b/gi;

/**
 * The status the model reported, lower-case, or undefined when it printed no marker. When the text
 * holds several markers the last one counts: models sometimes restate the instructions before
 * giving their verdict at the end.
 *
 * @example
 * planStepStatus('Done.\nPLAN_STEP_STATUS: completed'); // 'completed'
 * planStepStatus('All good'); // undefined
 */
export function planStepStatus(text: string): PlanStepStatus | undefined {
  const last = [...text.matchAll(MARKER)].at(-1);
  return last ? ((last[1] as string).toLowerCase() as PlanStepStatus) : undefined;
}

/**
 * A short reason for a blocker or a replan: what follows the last marker, or else the last
 * paragraph before it; whitespace collapsed, at most {@link BLOCKER_REASON_MAX_CHARS} characters.
 * When a tool failed during an item the model called completed, the failure is the reason.
 *
 * @example
 * statusReason('Tried twice.\nPLAN_STEP_STATUS: blocked\nThe API key is missing.');
 * // 'The API key is missing.'
 */
export function statusReason(text: string, toolError?: string): string {
  if (toolError !== undefined) {
    return truncate(collapseWhitespace(planText.completedAfterToolError(toolError)));
  }
  const last = [...text.matchAll(MARKER)].at(-1);
  if (!last || last.index === undefined) return truncate(collapseWhitespace(text));
  const after = collapseWhitespace(
    text.slice(last.index + last[0].length).replace(/^[\s:.-]+/, ''),
  );
  if (after !== '') return truncate(after);
  const paragraphs = text
    .slice(0, last.index)
    .split(/\n\s*\n/)
    .map(collapseWhitespace)
    .filter((paragraph) => paragraph !== '');
  return truncate(paragraphs.at(-1) ?? '');
}

function truncate(text: string): string {
  return text.length <= BLOCKER_REASON_MAX_CHARS
    ? text
    : `${text.slice(0, BLOCKER_REASON_MAX_CHARS - 1).trimEnd()}…`;
}
