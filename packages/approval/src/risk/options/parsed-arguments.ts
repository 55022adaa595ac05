import type { ShellWord } from '../shell/shell-word.js';
import type { OptionDef } from './option-table.js';

/**
 * One option as the program will see it.
 *
 * @example
 * const option: ParsedOption = { def, spelled: '--outp', value: literalWord('x') };
 */
export interface ParsedOption {
  readonly def: OptionDef;
  /** As written, without its value (`--outp`, `-o`). */
  readonly spelled: string;
  /** Its value as a word (a value computed at run time keeps `value: null`), or `null` without one. */
  readonly value: ShellWord | null;
}

/**
 * A command line split the way its program splits it.
 *
 * @example
 * const parsed: ParsedArguments = { options: [], operands: [word], problems: [] };
 */
export interface ParsedArguments {
  readonly options: readonly ParsedOption[];
  readonly operands: readonly ShellWord[];
  /** Options the analysis cannot resolve (unknown, ambiguous, computed at run time), as reasons. */
  readonly problems: readonly string[];
}

/**
 * The reason given when a word computed at run time could be an option that matters.
 *
 * @example
 * problems.push(DYNAMIC_OPTIONS);
 */
export const DYNAMIC_OPTIONS =
  'has arguments computed at run time, which could turn on an option that writes or runs code';

/**
 * Reasons for options the analysis cannot resolve, naming the option as written.
 *
 * @example
 * unresolved.unknown('sort', '--outpt'); // 'uses an option sort does not have (--outpt)'
 */
export const unresolved = {
  unknown: (program: string, option: string): string =>
    `uses an option ${program} does not have (${option})`,
  ambiguous: (option: string, candidates: readonly string[]): string =>
    `uses an abbreviated option that could mean ${candidates.slice(0, -1).join(', ')} or ${candidates.at(-1)} (${option})`,
  dynamic: (option: string): string => `uses an option computed at run time (${option})`,
};

/**
 * Collects what a parser finds, in order.
 *
 * @example
 * const out = new ParsedCollector('sort', SORT_OPTIONS.risky);
 */
export class ParsedCollector {
  readonly options: ParsedOption[] = [];
  readonly operands: ShellWord[] = [];
  readonly problems: string[] = [];

  constructor(
    readonly program: string,
    /** Whether the program has an option that is not harmless. */
    readonly risky: boolean,
  ) {}

  /** Record a problem once. */
  problem(reason: string): void {
    if (!this.problems.includes(reason)) this.problems.push(reason);
  }

  /**
   * A word computed at run time where an option could stand: it matters only when the program
   * has an option that is not harmless. A word that may as well be an operand (`"$f"`) is kept
   * as one; a word that is surely an option (`-$x`) is not.
   */
  maybeOption(word: ShellWord, operand: boolean): void {
    if (this.risky) this.problem(DYNAMIC_OPTIONS);
    if (operand) this.operands.push(word);
  }

  /** A word that is surely an option but partly computed at run time (`--$(x)`, `-$x`). */
  dynamicOption(shown: string): void {
    if (this.risky) this.problem(unresolved.dynamic(shown));
  }

  result(): ParsedArguments {
    return { options: this.options, operands: this.operands, problems: this.problems };
  }
}
