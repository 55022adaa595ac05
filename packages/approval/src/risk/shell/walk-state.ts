import type { AnalysisBudget } from './analysis-budget.js';
import type { ShellProblem, ShellProblemKind } from './shell-problem.js';
import type { ShellRedirect } from './shell-redirect.js';
import type { SimpleCommand } from './simple-command.js';

/**
 * Where the walker is: which substitutions and payloads it is inside, the pipeline stage, and
 * whether bash evaluates the text as arithmetic or as a `[[ ]]` test.
 *
 * @example
 * const top: WalkContext = { origin: [], pipeline: null, arithmetic: false, test: false, payloadDepth: 0 };
 */
export interface WalkContext {
  readonly origin: readonly string[];
  readonly pipeline: { readonly id: number; readonly stage: number } | null;
  readonly arithmetic: boolean;
  readonly test: boolean;
  readonly payloadDepth: number;
}

/**
 * What one analysis has found so far, shared by the program and every payload inside it.
 *
 * @example
 * const state: WalkState = { budget, deadline, now, commands: [], redirects: [], problems: [],
 *   analysePayload, nodes: 0, pipelines: 0, stopped: false };
 */
export interface WalkState {
  readonly budget: AnalysisBudget;
  readonly deadline: number;
  readonly now: () => number;
  readonly commands: SimpleCommand[];
  readonly redirects: ShellRedirect[];
  readonly problems: ShellProblem[];
  /** Parses and walks a payload; provided by the analysis, which owns the parser. */
  readonly analysePayload: (text: string, context: WalkContext) => void;
  nodes: number;
  pipelines: number;
  /** Set once a budget is exceeded: nothing more is walked. */
  stopped: boolean;
}

/**
 * Record a problem once (the same kind and detail are not repeated).
 *
 * @example
 * report(state, 'syntax_error', 'cannot parse `&`');
 */
export function report(state: WalkState, kind: ShellProblemKind, detail: string): void {
  if (!state.problems.some((problem) => problem.kind === kind && problem.detail === detail)) {
    state.problems.push({ kind, detail });
  }
}

/**
 * Stop the analysis because a limit was hit; what was found so far is still judged.
 *
 * @example
 * overBudget(state, 'the command nests payloads more than 5 deep');
 */
export function overBudget(state: WalkState, detail: string): void {
  report(state, 'over_budget', detail);
  state.stopped = true;
}

/**
 * The origin of commands found in expansion text the grammar did not parse.
 *
 * @example
 * command.origin.at(-1) === EXPANSION_ORIGIN;
 */
export const EXPANSION_ORIGIN = 'expansion';

/**
 * The origin of a command `find` runs for each file it finds (`-exec`, `-execdir`, `-ok`,
 * `-okdir`): its `{}` stands for paths only known at run time.
 *
 * @example
 * command.origin.includes(FIND_EXEC_ORIGIN);
 */
export const FIND_EXEC_ORIGIN = 'find -exec';
