import type { ShellWord } from './shell-word.js';

/**
 * The options a command understands, as far as telling options from operands needs.
 *
 * @example
 * const timeout: OptionSpec = { flags: ['--foreground'], valued: ['-s', '--signal', '-k'] };
 */
export interface OptionSpec {
  /** Options without a value (`-i`, `--null`). */
  readonly flags?: readonly string[];
  /** Options with a value, attached (`-n5`, `--max-args=5`) or in the next word. */
  readonly valued?: readonly string[];
  /** A bare number is an option (`nice -10`, `head -5`). */
  readonly numeric?: boolean;
}

/**
 * One option found: its name (`-n`, `--max-args`) and its value when it takes one.
 *
 * @example
 * const option: ScannedOption = { name: '-n', value: '5' };
 */
export interface ScannedOption {
  readonly name: string;
  /** The value's static text; `null` for a flag, or a value computed at run time. */
  readonly value: string | null;
}

/**
 * Options and operands of a command line.
 *
 * @example
 * const split: SplitArguments = { options: [{ name: '-n', value: null }], operands: [word] };
 */
export interface SplitArguments {
  readonly options: readonly ScannedOption[];
  readonly operands: readonly ShellWord[];
}

/**
 * Where a wrapper's own options end.
 *
 * @example
 * const scan: LeadingOptions = { options: [], rest: 1 };
 */
export interface LeadingOptions {
  readonly options: readonly ScannedOption[];
  /** Index of the first word after the options (and after `--`). */
  readonly rest: number;
  /** An option the spec does not list: the wrapper may mean something the analysis cannot follow. */
  readonly unknown?: string;
}

type Step =
  | { kind: 'options'; options: ScannedOption[]; consumed: number }
  | { kind: 'unknown'; option: string };

function has(list: readonly string[] | undefined, name: string): boolean {
  return list?.includes(name) ?? false;
}

function nextValue(args: readonly ShellWord[], index: number): string | null {
  return args[index + 1]?.value ?? null;
}

/**
 * GNU programs take any unambiguous prefix of a long option (`--targ` for `--target-directory`).
 * Where the spec names the option a prefix can only stand for, it is read as that option; a
 * prefix of several, or of none, stays as written. Used only when reading a command line
 * leniently to find what it touches: the spec lists the options that matter there, and a prefix
 * that is ambiguous in the real program makes it fail, so this never hides a target.
 */
function longPrefixOf(spec: OptionSpec, spelled: string): string {
  if (spelled.length <= 2 || has(spec.valued, spelled) || has(spec.flags, spelled)) return spelled;
  const candidates = [...(spec.valued ?? []), ...(spec.flags ?? [])].filter(
    (name) => name.startsWith('--') && name.startsWith(spelled),
  );
  return candidates.length === 1 ? (candidates[0] as string) : spelled;
}

// Reads the option word at `index` (already known to start with `-`): a long option, a bare number
// or a cluster of short ones. `lenient` treats unknown options as flags instead of stopping.
function readOption(
  args: readonly ShellWord[],
  index: number,
  text: string,
  spec: OptionSpec,
  lenient: boolean,
): Step {
  if (text.startsWith('--')) {
    const equals = text.indexOf('=');
    const spelled = equals < 0 ? text : text.slice(0, equals);
    const name = lenient ? longPrefixOf(spec, spelled) : spelled;
    const attached = equals < 0 ? null : text.slice(equals + 1);
    if (has(spec.valued, name)) {
      if (attached !== null)
        return { kind: 'options', options: [{ name, value: attached }], consumed: 1 };
      return { kind: 'options', options: [{ name, value: nextValue(args, index) }], consumed: 2 };
    }
    if (has(spec.flags, name) || lenient)
      return { kind: 'options', options: [{ name, value: attached }], consumed: 1 };
    return { kind: 'unknown', option: text };
  }
  if (spec.numeric === true && /^-\d+$/.test(text)) {
    return { kind: 'options', options: [{ name: text, value: null }], consumed: 1 };
  }
  const options: ScannedOption[] = [];
  for (let at = 1; at < text.length; at += 1) {
    const name = `-${text[at]}`;
    if (has(spec.valued, name)) {
      const attached = text.slice(at + 1);
      if (attached !== '')
        return { kind: 'options', options: [...options, { name, value: attached }], consumed: 1 };
      return {
        kind: 'options',
        options: [...options, { name, value: nextValue(args, index) }],
        consumed: 2,
      };
    }
    if (!has(spec.flags, name) && !lenient) return { kind: 'unknown', option: text };
    options.push({ name, value: null });
  }
  return { kind: 'options', options, consumed: 1 };
}

/**
 * A wrapper's own options, stopping at the first operand, after `--`, at a word computed at run
 * time, or at an option the spec does not list (reported as `unknown`).
 *
 * @example
 * scanLeadingOptions(words('-s KILL 5 rm x'), { valued: ['-s'] }).rest; // 2
 */
export function scanLeadingOptions(args: readonly ShellWord[], spec: OptionSpec): LeadingOptions {
  const options: ScannedOption[] = [];
  let index = 0;
  while (index < args.length) {
    const text = args[index]?.value;
    if (text === null || text === undefined || !text.startsWith('-') || text === '-') break;
    if (text === '--') return { options, rest: index + 1 };
    const step = readOption(args, index, text, spec, false);
    if (step.kind === 'unknown') return { options, rest: index, unknown: step.option };
    options.push(...step.options);
    index += step.consumed;
  }
  return { options, rest: index };
}

/**
 * Every option and operand of a command line, GNU style (options may follow operands until
 * `--`). Options the spec does not list count as flags; words computed at run time are operands.
 * A rough split for rules that only need a few options by exact spelling: commands judged
 * read-only are parsed with their complete option tables instead (see `../options`).
 *
 * @example
 * splitArguments(words('-n 5 a.txt'), { valued: ['-n'] }).operands; // [a.txt]
 */
export function splitArguments(args: readonly ShellWord[], spec: OptionSpec = {}): SplitArguments {
  const options: ScannedOption[] = [];
  const operands: ShellWord[] = [];
  let index = 0;
  while (index < args.length) {
    const word = args[index] as ShellWord;
    // `--format=$(…)`: still an option, only its value is unknown.
    const text =
      word.value ?? (word.prefix.startsWith('-') && word.prefix !== '-' ? word.prefix : null);
    if (text === '--') {
      operands.push(...args.slice(index + 1));
      break;
    }
    if (text === null || !text.startsWith('-') || text === '-') {
      operands.push(word);
      index += 1;
      continue;
    }
    const step = readOption(args, index, text, spec, true);
    if (step.kind === 'options') {
      options.push(...step.options);
      index += step.consumed;
    } else {
      options.push({ name: text, value: null });
      index += 1;
    }
  }
  return { options, operands };
}
