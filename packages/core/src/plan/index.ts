export { planActStrategy } from './plan-act-strategy.js';
export {
  memoryPlanFiles,
  PLAN_FILE,
  type PlanFileAccess,
  type PlanFileName,
  PlanFileStore,
  type PlanSnapshot,
  type PlanStore,
  planSnapshot,
  TODO_FILE,
} from './plan-files.js';
export { planModeStrategy } from './plan-mode-strategy.js';
export type { PlanFiles } from './plan-response.js';
export type { TodoItem } from './todo-grammar.js';
