import { literalWord, type ShellWord } from '../shell/shell-word.js';
import type { OptionTable } from './option-table.js';
import { type ParsedArguments, ParsedCollector, unresolved } from './parsed-arguments.js';

// Spelled-out forms of xxd's options that take a value: with one of these after the letter the
// value is the next word (`-cols 8`), with anything else it is the rest of the word (`-c8`).
const SPELLED_OUT: Readonly<Record<string, readonly string[]>> = {
  c: ['ols'],
  g: ['roup'],
  o: ['ffset'],
  s: ['kip', 'eek'],
  l: ['en'],
  n: ['ame'],
};

// xxd reads its own options, by hand like this: only at the start of the command line, one per
// word, and known by the letter after the dash alone (`-autoskip`, `-a` and `-axyz` are all
// `-a`; a leading `--` counts as `-`). The first word that is not an option, and every word after
// it, is an operand: the input file, then the output file it writes (`xxd in -ps` writes a file
// named `-ps`).
function readXxdWords(
  out: ParsedCollector,
  table: OptionTable,
  args: readonly ShellWord[],
): ShellWord[] {
  let index = 0;
  while (index < args.length) {
    const word = args[index] as ShellWord;
    const text = word.value;
    if (text === null) {
      if (word.prefix.startsWith('-')) out.dynamicOption(word.text);
      return args.slice(index);
    }
    if (text === '--') return args.slice(index + 1);
    const option = text.startsWith('--') && text.length > 2 ? text.slice(1) : text;
    if (!option.startsWith('-') || option.length < 2) return args.slice(index);
    const letter = option[1] as string;
    const rest = option.slice(2);
    const match =
      letter === 'c' && rest.startsWith('apitalize')
        ? table.short.get('-C')
        : table.short.get(`-${letter}`);
    if (match === undefined) {
      out.problem(unresolved.unknown(out.program, text));
      return [];
    }
    index += 1;
    let value: ShellWord | null = null;
    if (match.argument !== 'none' && !(letter === 'c' && rest.startsWith('apitalize'))) {
      const spelled = (SPELLED_OUT[letter] ?? []).some((form) => rest.startsWith(form));
      if (rest !== '' && !spelled) value = literalWord(rest);
      else {
        value = args[index] ?? null;
        index += 1;
      }
    }
    out.options.push({ def: match.def, spelled: text, value });
  }
  return [];
}

/**
 * Split `args` the way xxd does (see the comment above).
 *
 * @example
 * readXxd('xxd', XXD_OPTIONS, words('in -ps')).operands.length; // 2
 */
export function readXxd(
  program: string,
  table: OptionTable,
  args: readonly ShellWord[],
): ParsedArguments {
  const out = new ParsedCollector(program, table.risky);
  out.operands.push(...readXxdWords(out, table, args));
  return out.result();
}
