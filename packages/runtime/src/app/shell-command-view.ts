import { analyseShellCommand } from '@tiny-claw/approval';

/**
 * A bash command as a person deciding on it should see it: every simple command it would run
 * (nested ones and `bash -c` / `eval` payloads included, in source order) and what kept the
 * analysis from reading it fully.
 *
 * @example
 * const view: ShellCommandView = {
 *   commands: [{ text: 'rm -rf build', origin: [] }],
 *   problems: [],
 * };
 */
export interface ShellCommandView {
  commands: Array<{
    /** The simple command as written, wrappers included. */
    text: string;
    /** Where it sits, outermost first: `command substitution`, `bash -c payload`… */
    origin: string[];
  }>;
  /** Problems as `kind: detail`, e.g. `syntax_error: unexpected "&"`. */
  problems: string[];
}

/**
 * Parse a bash command with the same shell analysis the risk policy uses, for display only:
 * nothing runs. The grammar is loaded on first use.
 *
 * @example
 * const view = await describeShellCommand('ls && echo $(rm -rf x)');
 * view.commands.map((c) => c.text); // ['ls', 'echo $(rm -rf x)', 'rm -rf x']
 */
export async function describeShellCommand(command: string): Promise<ShellCommandView> {
  const analysis = await analyseShellCommand(command);
  return {
    commands: analysis.commands.map((simple) => ({
      text: simple.text,
      origin: [...simple.origin],
    })),
    problems: analysis.problems.map((problem) => `${problem.kind}: ${problem.detail}`),
  };
}
