export { PlanActRun, type PlanActStart, type TodoVerdict } from './plan-act-run.js';
export {
  FilePlanStore,
  FilePlanStoreFactory,
  PLAN_FILE,
  type PlanSnapshot,
  type PlanStore,
  type PlanStoreFactory,
  planSnapshot,
  TODO_FILE,
} from './plan-files.js';
export { createPlanPrompt, executeTodoPrompt, replanPrompt } from './plan-prompts.js';
export { renderAllDone, renderPlan, renderPlanMemory } from './plan-render.js';
export {
  extractPlanDocuments,
  normalizePlanMarkdown,
  type PlanFiles,
  planFilesFromResponse,
  revisedPlanFiles,
} from './plan-response.js';
export {
  BLOCKER_REASON_MAX_CHARS,
  PLAN_STEP_STATUS,
  type PlanStepStatus,
  planStepStatus,
  planStepStatuses,
  statusReason,
} from './plan-status.js';
export {
  appendTodoBlocker,
  formatTodoItem,
  keepCompletedItems,
  markTodoDone,
  nextOpenItem,
  normalizeTodoMarkdown,
  parseTodoItems,
  type TodoItem,
} from './todo-grammar.js';
