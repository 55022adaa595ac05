import { planText } from './strings.js';
import {
  collapseWhitespace,
  keepCompletedItems,
  normalizeTodoMarkdown,
  parseTodoItems,
  withTrailingNewline,
} from './todo-grammar.js';

/**
 * The two plan files of a session, as Markdown text.
 *
 * @example
 * const files: PlanFiles = { plan: '# PLAN.md\n…\n', todo: '# TODO.md\n\n- [ ] TC-001 Go\n' };
 */
export interface PlanFiles {
  plan: string;
  todo: string;
}

/** A default TODO item names the request; a prompt pasted as a page would make a useless line. */
const DEFAULT_ITEM_MAX_CHARS = 200;

/**
 * The bodies of `<PLAN_MD>` and `<TODO_MD>` in a model reply (tags case-insensitive; a missing
 * closing tag ends at the other tag or the end of the text, so a truncated reply still counts).
 * An empty body, or one wrapped in a code fence, is unwrapped; empty counts as missing.
 *
 * @example
 * extractPlanDocuments('<PLAN_MD># P</PLAN_MD><TODO_MD>- [ ] A</TODO_MD>');
 * // { plan: '# P', todo: '- [ ] A' }
 */
export function extractPlanDocuments(text: string): { plan?: string; todo?: string } {
  const plan = extractTag(text, 'PLAN_MD', 'TODO_MD');
  const todo = extractTag(text, 'TODO_MD', 'PLAN_MD');
  return { ...(plan === undefined ? {} : { plan }), ...(todo === undefined ? {} : { todo }) };
}

/**
 * The plan files to create from a planning reply. A missing PLAN.md becomes a template whose goal
 * is the reply's other text (or the prompt); a missing TODO.md, or one without any checkbox, gets
 * one item naming the request. Both are normalised (titles, `TC-nnn` IDs, final newline).
 *
 * @example
 * planFilesFromResponse('<PLAN_MD># PLAN.md\nGoal</PLAN_MD><TODO_MD>- [ ] Setup</TODO_MD>', 'build it');
 * // { plan: '# PLAN.md\nGoal\n', todo: '# TODO.md\n\n- [ ] TC-001 Setup\n' }
 */
export function planFilesFromResponse(text: string, prompt: string): PlanFiles {
  const documents = extractPlanDocuments(text);
  const rest = text.replace(/<(PLAN_MD|TODO_MD)>[\s\S]*?(<\/\1>|$)/gi, '').trim();
  const goal = rest || prompt.trim() || planText.noPrompt;
  const plan = normalizePlanMarkdown(documents.plan ?? planText.defaultPlan(goal));
  const todo = documents.todo ? normalizeTodoMarkdown(documents.todo) : undefined;
  return { plan, todo: todo && hasItems(todo) ? todo : defaultTodo(prompt) };
}

/**
 * The plan files after a replanning reply, or undefined when the reply holds neither document (the
 * current plan then stays as it is). A document the reply left out, or a TODO without any checkbox,
 * is kept; the revised TODO keeps every completed item ({@link keepCompletedItems}).
 *
 * @example
 * revisedPlanFiles(current, '<TODO_MD>- [ ] TC-004 New approach</TODO_MD>');
 */
export function revisedPlanFiles(current: PlanFiles, text: string): PlanFiles | undefined {
  const documents = extractPlanDocuments(text);
  const todo = documents.todo ? normalizeTodoMarkdown(documents.todo) : undefined;
  // A checklist without any checkbox would read as "all done": it is ignored, not applied.
  const revised = todo && hasItems(todo) ? todo : undefined;
  if (documents.plan === undefined && revised === undefined) return undefined;
  const plan = documents.plan ? normalizePlanMarkdown(documents.plan) : current.plan;
  return { plan, todo: keepCompletedItems(current.todo, revised ?? current.todo) };
}

/**
 * PLAN.md with a `# PLAN.md` title when it does not start with a heading, and a final newline.
 *
 * @example
 * normalizePlanMarkdown('Goal: x'); // '# PLAN.md\n\nGoal: x\n'
 */
export function normalizePlanMarkdown(plan: string): string {
  const text = plan.trim();
  return withTrailingNewline(text.startsWith('#') ? text : `${planText.planTitle}\n\n${text}`);
}

function defaultTodo(prompt: string): string {
  const request = collapseWhitespace(prompt);
  const item =
    request === ''
      ? planText.defaultTodoItem
      : request.length > DEFAULT_ITEM_MAX_CHARS
        ? `${request.slice(0, DEFAULT_ITEM_MAX_CHARS - 1).trimEnd()}…`
        : request;
  return `${planText.todoTitle}\n\n- [ ] TC-001 ${item}\n`;
}

function hasItems(todo: string): boolean {
  return parseTodoItems(todo).length > 0;
}

function extractTag(text: string, tag: string, other: string): string | undefined {
  const pattern = new RegExp(`<${tag}>([\\s\\S]*?)(?:</${tag}>|(?=<${other}>)|$)`, 'i');
  const body = pattern.exec(text)?.[1];
  if (body === undefined) return undefined;
  const unfenced = body.trim().replace(/^```[\w-]*\n([\s\S]*?)\n?```$/, '$1');
  const trimmed = unfenced.trim();
  return trimmed === '' ? undefined : trimmed;
}
