/**
 * Something about a shell program, apart from its commands, that keeps it from being judged
 * safe without a person:
 * - `syntax_error`: the grammar found an error or a missing token, or a token where bash refuses it;
 * - `invisible_characters`: control, zero-width or separator characters;
 * - `over_budget`: too long, too deep or too slow to analyse;
 * - `function_definition`: a function, which can shadow any command;
 * - `arithmetic_string`: a quoted string where bash evaluates arithmetic, which can run commands;
 * - `arithmetic_variable`: a variable where bash evaluates arithmetic: its value is evaluated too,
 *   and a subscript in it (`a[$(cmd)]`) runs commands;
 * - `indirect_expansion`: `${!name}` or `${name@P}`, which evaluate a variable's value;
 * - `unsupported_syntax`: a construct the analysis does not follow.
 *
 * @example
 * const kind: ShellProblemKind = 'syntax_error';
 */
export type ShellProblemKind =
  | 'syntax_error'
  | 'invisible_characters'
  | 'over_budget'
  | 'function_definition'
  | 'arithmetic_string'
  | 'arithmetic_variable'
  | 'indirect_expansion'
  | 'unsupported_syntax';

/**
 * One problem, with the detail a person needs (the offending text, the limit that was hit).
 *
 * @example
 * const problem: ShellProblem = { kind: 'syntax_error', detail: 'unexpected `&`' };
 */
export interface ShellProblem {
  readonly kind: ShellProblemKind;
  readonly detail: string;
}
