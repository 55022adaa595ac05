import { literalWord, type ShellWord } from '../shell/shell-word.js';
import type { OptionTable } from './option-table.js';
import { type ParsedArguments, ParsedCollector, unresolved } from './parsed-arguments.js';

// tree reads its own options, by hand like this: until `--`, a word starting with `-` (and longer
// than that) is options. `--name` must be a whole name, except that a long option taking a value
// matches any word that starts with its name: `--charset=X`, `--charset X`, and even
// `--charsetfoo X`, whose value is the next word. In a cluster of short options, each one that
// takes a value takes the next unused word (`-Lo 2 out`), never the rest of its own word.
class TreeReader {
  private readonly out: ParsedCollector;
  private index = 0;

  constructor(
    program: string,
    private readonly table: OptionTable,
    private readonly args: readonly ShellWord[],
  ) {
    this.out = new ParsedCollector(program, table.risky);
  }

  read(): ParsedArguments {
    let options = true;
    while (this.index < this.args.length) {
      const word = this.args[this.index] as ShellWord;
      this.index += 1;
      const text = word.value;
      if (!options) this.out.operands.push(word);
      else if (text === null) this.dynamic(word);
      else if (text === '--') options = false;
      else if (!text.startsWith('-') || text === '-') this.out.operands.push(word);
      else if (text.startsWith('--')) this.long(text);
      else this.cluster(text);
    }
    return this.out.result();
  }

  private dynamic(word: ShellWord): void {
    if (word.prefix === '') this.out.maybeOption(word, true);
    else if (word.prefix.startsWith('-')) this.out.dynamicOption(word.text);
    else this.out.operands.push(word);
  }

  private next(): ShellWord | null {
    const value = this.args[this.index] ?? null;
    if (value !== null) this.index += 1;
    return value;
  }

  private long(text: string): void {
    const flag = this.table.long.get(text.slice(2));
    if (flag !== undefined && flag.argument === 'none') {
      this.out.options.push({ def: flag.def, spelled: text, value: null });
      return;
    }
    for (const [name, match] of this.table.long) {
      if (match.argument === 'none' || !text.startsWith(`--${name}`)) continue;
      const rest = text.slice(name.length + 2);
      const value = rest.startsWith('=') ? literalWord(rest.slice(1)) : this.next();
      this.out.options.push({ def: match.def, spelled: `--${name}`, value });
      return;
    }
    this.out.problem(unresolved.unknown(this.out.program, text));
  }

  private cluster(text: string): void {
    for (const letter of text.slice(1)) {
      const match = this.table.short.get(`-${letter}`);
      if (match === undefined) {
        this.out.problem(unresolved.unknown(this.out.program, `-${letter}`));
        return;
      }
      const value = match.argument === 'none' ? null : this.next();
      this.out.options.push({ def: match.def, spelled: `-${letter}`, value });
    }
  }
}

/**
 * Split `args` the way tree does (see the comment above).
 *
 * @example
 * readTree('tree', TREE_OPTIONS, words('-Lo 2 out')).options.map((o) => o.value?.value); // ['2', 'out']
 */
export function readTree(
  program: string,
  table: OptionTable,
  args: readonly ShellWord[],
): ParsedArguments {
  return new TreeReader(program, table, args).read();
}
