import type { ShellRedirect } from './shell-redirect.js';
import type { ShellWord } from './shell-word.js';

/**
 * A `NAME=value` assignment: a prefix of a command (`FOO=bar cmd`), an operand of `env`, or a
 * statement of its own (`PATH=/x`).
 *
 * @example
 * const assignment: ShellAssignment = { name: 'PAGER', value: null, text: 'PAGER="$X"' };
 */
export interface ShellAssignment {
  readonly name: string;
  readonly value: string | null;
  readonly text: string;
}

/**
 * What a simple command is:
 * - `command`: runs a program or builtin (`ls -la`, `rm -rf x`);
 * - `declaration`: `export`, `declare`, `typeset`, `local`, `readonly` or `unset`;
 * - `assignment`: only sets shell variables (`x=1`);
 * - `redirection`: only redirects (`> out`, `exec 3< in` has a name and is a `command`).
 *
 * @example
 * const kind: SimpleCommandKind = 'declaration';
 */
export type SimpleCommandKind = 'command' | 'declaration' | 'assignment' | 'redirection';

/**
 * A payload a command runs as shell code: a `bash -c` string, the words of `eval`, an alias
 * value, a trap handler, a heredoc fed to a shell. `text: null` means it is only known at run time.
 *
 * @example
 * const payload: ShellPayload = { via: 'eval', text: 'rm -rf x' };
 */
export interface ShellPayload {
  readonly via: string;
  readonly text: string | null;
}

/**
 * One simple command found anywhere in a shell program, after unwrapping known wrappers.
 *
 * @example
 * // `sudo timeout 5 rm -rf x` gives
 * const command: SimpleCommand = {
 *   kind: 'command', text: 'sudo timeout 5 rm -rf x', name, program: 'rm', args,
 *   assignments: [], redirects: [], wrappers: ['sudo', 'timeout'], origin: [], pipeline: null,
 *   payloads: [],
 * };
 */
export interface SimpleCommand {
  readonly kind: SimpleCommandKind;
  /** The command as written, wrappers included (for showing to a person). */
  readonly text: string;
  /** The command word after unwrapping; `null` for assignments and bare redirections. */
  readonly name: ShellWord | null;
  /** The command word's static value (a path like `/bin/rm` stays a path); `null` when unresolvable. */
  readonly program: string | null;
  readonly args: readonly ShellWord[];
  /** Environment assignments for this command: prefixes and `env NAME=value` operands. */
  readonly assignments: readonly ShellAssignment[];
  readonly redirects: readonly ShellRedirect[];
  /** Wrappers removed to find the command, outermost first (`sudo`, `timeout`, `xargs`…). */
  readonly wrappers: readonly string[];
  /** The option names each wrapper was given, in the order of `wrappers` (`[['-0', '-n']]`). */
  readonly wrapperOptions?: readonly (readonly string[])[];
  /** Why unwrapping stopped early (an option of a wrapper the analysis does not know). */
  readonly unwrapProblem?: string;
  /** Where it sits: `command substitution`, `bash -c payload`, `find -exec`… outermost first. */
  readonly origin: readonly string[];
  /** Its pipeline and stage (0 is the first command of the pipe), or `null` outside any pipeline. */
  readonly pipeline: { readonly id: number; readonly stage: number } | null;
  /** Shell code this command runs (analysed too, as commands with a matching `origin`). */
  readonly payloads: readonly ShellPayload[];
}
