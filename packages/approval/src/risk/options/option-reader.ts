import { literalWord, type ShellWord } from '../shell/shell-word.js';
import type { LongResolution, OptionMatch } from './option-table.js';
import { type ParsedArguments, ParsedCollector, unresolved } from './parsed-arguments.js';

/**
 * Where a reader looks options up: a long spelling (without its dashes) and a short one
 * (`-o`), and whether any option is not harmless.
 *
 * @example
 * const source: OptionSource = { long: (name) => resolveLong(table, name, true), short: … };
 */
export interface OptionSource {
  readonly long: (name: string) => LongResolution;
  readonly short: (spelled: string) => OptionMatch | undefined;
  readonly risky: boolean;
}

/**
 * How a getopt-like parser reads words beyond looking options up.
 *
 * @example
 * const seq: ReaderHabits = { stopAtOperand: true, negativeNumbers: true };
 */
export interface ReaderHabits {
  /** Options end at the first operand (a `+` leading getopt's option string, bash builtins). */
  readonly stopAtOperand?: boolean;
  /**
   * An old option form the program reads before getopt (`head -5c`, `sort +1 -2`): how many
   * words at `index` make one such option, or 0.
   */
  readonly obsolete?: (args: readonly ShellWord[], index: number) => number;
  /** A word like `-1` or `-.5` is a negative number operand, and options end there (seq). */
  readonly negativeNumbers?: boolean;
  /** A word `-<digits>` is an option on its own (`git log -5`). */
  readonly numberOption?: boolean;
  /** A word `@file` is replaced by arguments read from that file (binutils). */
  readonly atFiles?: boolean;
  /** Words that end the options besides `--` (git's `--end-of-options`). */
  readonly endWords?: readonly string[];
  /** A short option's attached value may start with `=`, which is dropped (`rg -C=2`). */
  readonly shortEquals?: boolean;
}

/**
 * Why a command that reads more arguments from a file needs approval.
 *
 * @example
 * AT_FILE('strings', '@opts');
 */
export const AT_FILE = (program: string, word: string): string =>
  `reads more arguments from a file, which could hold any option (${program} ${word})`;

function valueless(option: string): string {
  return `gives a value to an option that takes none (${option})`;
}

function partial(shown: string, prefix: string): ShellWord {
  return { text: shown, value: null, prefix, expands: false };
}

// The reader mirrors getopt_long by hand: the analysis must split words exactly as the program
// will, before anything runs, and the program's parser is not there to call. Per word: `--` ends
// options; `--name[=value]` is a long option (how its name resolves is the source's business:
// exact only, or unique prefixes too); `-abc` is a cluster of short options, the first one that
// takes a value ending it (the rest of the word, or the next word when the value is required);
// anything else is an operand, and options may follow operands unless `stopAtOperand`.
class OptionReader {
  private readonly out: ParsedCollector;
  private index = 0;
  private stopped = false;

  constructor(
    program: string,
    private readonly source: OptionSource,
    private readonly habits: ReaderHabits,
    private readonly args: readonly ShellWord[],
  ) {
    this.out = new ParsedCollector(program, source.risky);
  }

  read(): ParsedArguments {
    while (this.index < this.args.length) {
      const word = this.args[this.index] as ShellWord;
      this.index += 1;
      if (this.stopped) this.out.operands.push(word);
      else if (word.value === null) this.dynamic(word);
      else if (word.value === '--' || this.habits.endWords?.includes(word.value) === true)
        this.stopped = true;
      else this.word(word, word.value);
    }
    return this.out.result();
  }

  private operand(word: ShellWord): void {
    this.out.operands.push(word);
    if (this.habits.stopAtOperand === true) this.stopped = true;
  }

  private word(word: ShellWord, text: string): void {
    const obsolete = this.habits.obsolete?.(this.args, this.index - 1) ?? 0;
    if (obsolete > 0) {
      this.index += obsolete - 1;
      return;
    }
    if (this.habits.atFiles === true && text.startsWith('@')) {
      this.out.problem(AT_FILE(this.out.program, text));
      return;
    }
    if (!text.startsWith('-') || text === '-') {
      this.operand(word);
      return;
    }
    if (this.habits.negativeNumbers === true && /^-[\d.]/.test(text)) {
      this.out.operands.push(word);
      this.stopped = true;
      return;
    }
    if (this.habits.numberOption === true && /^-\d+$/.test(text)) return;
    if (text.startsWith('--')) this.long(text, null);
    else this.cluster(text.slice(1), text, false);
  }

  // A word with a part known only at run time: what its literal start says decides.
  private dynamic(word: ShellWord): void {
    const prefix = word.prefix;
    if (word.commitIds === true) this.operand(word);
    else if (prefix === '') {
      this.out.maybeOption(word, true);
      if (this.habits.stopAtOperand === true) this.stopped = true;
    } else if (!prefix.startsWith('-')) this.operand(word);
    else if (prefix.startsWith('--') && prefix.includes('=')) this.long(prefix, word.text);
    else if (prefix.startsWith('--') || prefix === '-') this.out.dynamicOption(word.text);
    else this.cluster(prefix.slice(1), word.text, true);
  }

  // `shown` is the whole word when its value is known only at run time (`--format=$(…)`).
  private long(text: string, shown: string | null): void {
    const equals = text.indexOf('=');
    const spelled = equals < 0 ? text : text.slice(0, equals);
    const resolution = this.source.long(spelled.slice(2));
    if (resolution.kind === 'unknown') {
      this.out.problem(unresolved.unknown(this.out.program, spelled));
      return;
    }
    if (resolution.kind === 'ambiguous') {
      this.out.problem(unresolved.ambiguous(spelled, resolution.candidates));
      return;
    }
    const match = resolution.match;
    let value: ShellWord | null = null;
    if (equals >= 0) {
      if (match.argument === 'none') {
        this.out.problem(valueless(shown ?? text));
        return;
      }
      const attached = text.slice(equals + 1);
      value = shown === null ? literalWord(attached) : partial(shown, attached);
    } else if (match.argument === 'required') value = this.next();
    this.out.options.push({ def: match.def, spelled, value });
  }

  private next(): ShellWord | null {
    const value = this.args[this.index] ?? null;
    if (value !== null) this.index += 1;
    return value;
  }

  // `letters` is the cluster after its dash; `open` means more letters may follow at run time.
  private cluster(letters: string, shown: string, open: boolean): void {
    for (let at = 0; at < letters.length; at += 1) {
      const spelled = `-${letters[at]}`;
      const match = this.source.short(spelled);
      // getopt reports an unknown letter and goes on with the rest of the cluster.
      if (match === undefined) {
        this.out.problem(unresolved.unknown(this.out.program, spelled));
        continue;
      }
      if (match.argument === 'none') {
        this.out.options.push({ def: match.def, spelled, value: null });
        continue;
      }
      let rest = letters.slice(at + 1);
      if (this.habits.shortEquals === true && rest.startsWith('=')) rest = rest.slice(1);
      let value: ShellWord | null;
      if (open) value = partial(shown, rest);
      else if (rest !== '') value = literalWord(rest);
      else value = match.argument === 'required' ? this.next() : null;
      this.out.options.push({ def: match.def, spelled, value });
      return;
    }
    if (open) this.out.dynamicOption(shown);
  }
}

/**
 * Split `args` the way a getopt-like parser of the program named `program` does.
 *
 * @example
 * readOptions('sort', sortSource, {}, words('--outp=x in')).options[0]?.def.id; // '-o'
 */
export function readOptions(
  program: string,
  source: OptionSource,
  habits: ReaderHabits,
  args: readonly ShellWord[],
): ParsedArguments {
  return new OptionReader(program, source, habits, args).read();
}
