import { type AnalysisBudget, bracketNesting, DEFAULT_ANALYSIS_BUDGET } from './analysis-budget.js';
import { bashParser } from './bash-parser.js';
import { walkTree } from './extract-commands.js';
import { codePointLabel, findInvisibleCharacters } from './invisible-characters.js';
import type { ShellProblem } from './shell-problem.js';
import type { ShellRedirect } from './shell-redirect.js';
import type { SimpleCommand } from './simple-command.js';
import { overBudget, type WalkContext, type WalkState } from './walk-state.js';

/**
 * A shell command read as a program: every simple command in it (nested ones and payloads
 * included, in source order), every redirection, and the problems that keep it from being
 * trusted as read.
 *
 * @example
 * const { commands } = await analyseShellCommand('ls && echo $(rm -rf x)');
 * commands.map((command) => command.program); // ['ls', 'echo', 'rm']
 */
export interface ShellAnalysis {
  readonly source: string;
  readonly commands: readonly SimpleCommand[];
  readonly redirects: readonly ShellRedirect[];
  readonly problems: readonly ShellProblem[];
}

/**
 * Options of {@link analyseShellCommand}.
 *
 * @example
 * const options: AnalyseShellOptions = { budget: { maxLength: 4096 } };
 */
export interface AnalyseShellOptions {
  /** Limits to use instead of {@link DEFAULT_ANALYSIS_BUDGET} (any subset). */
  readonly budget?: Partial<AnalysisBudget>;
  /** Millisecond clock for the time budget; default `performance.now`. */
  readonly now?: () => number;
}

// `rg --pr\<newline>e=sh`: bash removes the backslash-newline and reads `--pre=sh`; the grammar
// ends the word at the backslash. Between two non-blank characters the two readings differ.
const WORD_CONTINUATION = /[^\s]\\\n(?=[^\s])/;

const TOP: WalkContext = {
  origin: [],
  pipeline: null,
  arithmetic: false,
  test: false,
  payloadDepth: 0,
};

function invisibleProblem(source: string): ShellProblem[] {
  const found = findInvisibleCharacters(source);
  if (found.length === 0) return [];
  const labels = found
    .slice(0, 3)
    .map((character) => `${codePointLabel(character.codePoint)} at offset ${character.index}`);
  const more = found.length > 3 ? ` and ${found.length - 3} more` : '';
  return [{ kind: 'invisible_characters', detail: `${labels.join(', ')}${more}` }];
}

/**
 * Parse a shell command with the bash grammar and extract every simple command in it, without
 * running anything. Limits (length, nesting, syntax nodes, depth, time) are checked before and
 * while parsing; a command over a limit yields an `over_budget` problem and whatever was found
 * before the limit.
 *
 * @throws Error when the bash grammar cannot be loaded.
 * @example
 * const analysis = await analyseShellCommand("sudo bash -c 'rm -rf x'");
 * analysis.commands.at(-1)?.origin; // ['bash -c']
 */
export async function analyseShellCommand(
  source: string,
  options: AnalyseShellOptions = {},
): Promise<ShellAnalysis> {
  const budget: AnalysisBudget = { ...DEFAULT_ANALYSIS_BUDGET, ...options.budget };
  const now = options.now ?? (() => performance.now());
  const problems: ShellProblem[] = invisibleProblem(source);
  const commands: SimpleCommand[] = [];
  const redirects: ShellRedirect[] = [];
  const result: ShellAnalysis = { source, commands, redirects, problems };
  if (source.length > budget.maxLength) {
    problems.push({
      kind: 'over_budget',
      detail: `the command is ${source.length} characters long; the analysis reads at most ${budget.maxLength}`,
    });
    return result;
  }
  const nesting = bracketNesting(source);
  if (nesting > budget.maxNesting) {
    problems.push({
      kind: 'over_budget',
      detail: `the command nests brackets ${nesting} deep; the analysis follows at most ${budget.maxNesting}`,
    });
    return result;
  }
  const parser = await bashParser();
  const state: WalkState = {
    budget,
    deadline: now() + budget.maxMilliseconds,
    now,
    commands,
    redirects,
    problems,
    analysePayload: (text, context) =>
      parseAndWalk(text, {
        origin: context.origin,
        pipeline: null,
        arithmetic: false,
        test: false,
        payloadDepth: context.payloadDepth + 1,
      }),
    nodes: 0,
    pipelines: 0,
    stopped: false,
  };

  function parseAndWalk(text: string, context: WalkContext): void {
    if (context.payloadDepth > budget.maxPayloadDepth) {
      overBudget(state, `shell payloads nest more than ${budget.maxPayloadDepth} deep`);
      return;
    }
    const joined = WORD_CONTINUATION.exec(text);
    if (joined !== null) {
      problems.push({
        kind: 'unsupported_syntax',
        detail: `a line continuation inside a word at offset ${joined.index + 1}, which bash joins and the parser splits`,
      });
    }
    // The callback cancels a parse that runs past the deadline (tree-sitter polls it).
    const tree = parser.parse(text, null, { progressCallback: () => now() > state.deadline });
    if (tree === null) {
      parser.reset();
      overBudget(state, `parsing took longer than ${budget.maxMilliseconds} ms`);
      return;
    }
    try {
      walkTree(tree.rootNode, context, state);
    } finally {
      tree.delete();
    }
  }

  parseAndWalk(source, TOP);
  return result;
}
