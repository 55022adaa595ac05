/**
 * How an option takes its value: not at all, always (attached or, for most parsers, in the next
 * word), or only when attached (`--color=auto`, `-i.bak`).
 *
 * @example
 * const argument: OptionArgument = 'optional';
 */
export type OptionArgument = 'none' | 'required' | 'optional';

/**
 * What giving an option means for a command that is otherwise read-only. An option with none of
 * these is harmless.
 *
 * @example
 * const output: OptionRule = { writes: 'writes its output to a file (sort -o)' };
 */
export interface OptionRule {
  /** Any use needs approval, for this reason. */
  readonly ask?: string;
  /** It writes the file its value names: any use needs approval, and the file is a write target. */
  readonly writes?: string;
  /** Its value names a file whose contents the program reads, checked like a file operand. */
  readonly reads?: true;
  /** Its value is the pattern or script, so the first operand is a file, not a pattern. */
  readonly pattern?: true;
  /** Needs approval for this reason when its value (known or not) passes `test`. */
  readonly askWhen?: {
    readonly reason: string;
    readonly test: (value: string | null) => boolean;
  };
}

/**
 * One option: every spelling the program accepts for it, and what it means.
 *
 * @example
 * const output: OptionDef = { id: '-o', spellings: [...], rule: { writes: '…' } };
 */
export interface OptionDef {
  /** Its first spelling as the table writes it (`-o`, `--files0-from`): unique in its table. */
  readonly id: string;
  readonly spellings: readonly { readonly name: string; readonly argument: OptionArgument }[];
  readonly rule: OptionRule;
}

/**
 * A spelling found in a table: the option it belongs to and how that spelling takes its value.
 *
 * @example
 * const match: OptionMatch = { def, argument: 'required', name: '--output' };
 */
export interface OptionMatch {
  readonly def: OptionDef;
  readonly argument: OptionArgument;
  /** The full spelling (`--output` for `--outp`). */
  readonly name: string;
}

/**
 * What a long option's spelling resolves to: one option, several (ambiguous), or none.
 *
 * @example
 * resolveLong(table, 'outp'); // { kind: 'match', match: { name: '--output', … } }
 */
export type LongResolution =
  | { readonly kind: 'match'; readonly match: OptionMatch }
  | { readonly kind: 'ambiguous'; readonly candidates: readonly string[] }
  | { readonly kind: 'unknown' };

/**
 * One line of an option table. Its spellings are separated by spaces and all mean the same
 * option: `-x` takes no value, `-x:` requires one, `-x::` takes one only attached; `--name`
 * takes none, `--name=` requires one, `--name[=]` takes one only after `=`. A rule says what
 * the option does when it is not harmless.
 *
 * @example
 * const line: OptionLine = ['-o: --output=', { writes: 'writes its output to a file (sort -o)' }];
 */
export type OptionLine = string | readonly [string, OptionRule];

/**
 * An option table ready for lookups: exact spellings in maps, and every prefix of every long
 * name resolved once, when the table is first used, so judging a command costs a map lookup per
 * option word.
 *
 * @example
 * const table: OptionTable = optionTable(['-n: --lines=', '-q --quiet --silent']);
 */
export interface OptionTable {
  readonly defs: readonly OptionDef[];
  readonly short: ReadonlyMap<string, OptionMatch>;
  /** Long spellings without their dashes (`output`, and `-presume-input-pipe` for `---pre…`). */
  readonly long: ReadonlyMap<string, OptionMatch>;
  /** Whether some option is not harmless (so a word computed at run time could be that option). */
  readonly risky: boolean;
  /** Unique prefixes of long names, and the names each ambiguous prefix could mean. */
  prefixes(): ReadonlyMap<string, LongResolution>;
}

const SHORT = /^-([^-])(:{0,2})$/;
const LONG = /^--([^=[\]]+)(=|\[=\])?$/;

function spellingOf(text: string): { name: string; argument: OptionArgument } {
  const short = SHORT.exec(text);
  if (short !== null) {
    const colons = short[2] ?? '';
    return {
      name: `-${short[1]}`,
      argument: colons === ':' ? 'required' : colons === '::' ? 'optional' : 'none',
    };
  }
  const long = LONG.exec(text);
  if (long === null) throw new Error(`not an option spelling: ${text}`);
  return {
    name: `--${long[1]}`,
    argument: long[2] === '=' ? 'required' : long[2] === '[=]' ? 'optional' : 'none',
  };
}

function isRisky(rule: OptionRule): boolean {
  return (
    rule.ask !== undefined ||
    rule.writes !== undefined ||
    rule.reads !== undefined ||
    rule.askWhen !== undefined
  );
}

// Two spellings sharing a prefix are one option for abbreviation when they are the same option
// taking its value the same way (glibc's rule; git's aliases behave alike).
function sameOption(a: OptionMatch, b: OptionMatch): boolean {
  return a.def === b.def && a.argument === b.argument;
}

function buildPrefixes(long: ReadonlyMap<string, OptionMatch>): Map<string, LongResolution> {
  const found = new Map<string, OptionMatch[]>();
  for (const [name, match] of long) {
    for (let end = 1; end <= name.length; end += 1) {
      const prefix = name.slice(0, end);
      const list = found.get(prefix);
      if (list === undefined) found.set(prefix, [match]);
      else if (!list.some((other) => sameOption(other, match))) list.push(match);
    }
  }
  const prefixes = new Map<string, LongResolution>();
  for (const [prefix, matches] of found) {
    const exact = long.get(prefix);
    if (exact !== undefined) prefixes.set(prefix, { kind: 'match', match: exact });
    else if (matches.length === 1)
      prefixes.set(prefix, { kind: 'match', match: matches[0] as OptionMatch });
    else
      prefixes.set(prefix, {
        kind: 'ambiguous',
        candidates: matches.map((match) => match.name),
      });
  }
  return prefixes;
}

/**
 * Build an option table from its lines (see {@link OptionLine}).
 *
 * @example
 * optionTable(['-n: --lines=', '-q --quiet --silent']).short.get('-n')?.argument; // 'required'
 */
export function optionTable(lines: readonly OptionLine[]): OptionTable {
  const defs: OptionDef[] = [];
  const short = new Map<string, OptionMatch>();
  const long = new Map<string, OptionMatch>();
  for (const line of lines) {
    const [text, rule] = typeof line === 'string' ? [line, {}] : line;
    const spellings = text.split(' ').map(spellingOf);
    const def: OptionDef = { id: spellings[0]?.name ?? text, spellings, rule };
    defs.push(def);
    for (const spelling of spellings) {
      const match = { def, argument: spelling.argument, name: spelling.name };
      const map = spelling.name.startsWith('--') ? long : short;
      const key = spelling.name.startsWith('--') ? spelling.name.slice(2) : spelling.name;
      if (map.has(key)) throw new Error(`${spelling.name} is listed twice`);
      map.set(key, match);
    }
  }
  let prefixes: Map<string, LongResolution> | undefined;
  return {
    defs,
    short,
    long,
    risky: defs.some((def) => isRisky(def.rule)),
    prefixes: () => {
      prefixes ??= buildPrefixes(long);
      return prefixes;
    },
  };
}

/**
 * Several one-letter options without long names, all harmless: `letters('cCfg')` is `-c`, `-C`,
 * `-f` and `-g`.
 *
 * @example
 * optionTable(['-a --all', ...letters('lt1')]);
 */
export function letters(list: string): string[] {
  return [...list].map((letter) => `-${letter}`);
}

/**
 * The long option a spelling (without its dashes) stands for: an exact name wins, then a prefix
 * of exactly one option; with `abbreviations: false`, only exact names count.
 *
 * @example
 * resolveLong(sortTable, 'outp', true); // { kind: 'match', match: { name: '--output', … } }
 */
export function resolveLong(
  table: OptionTable,
  name: string,
  abbreviations: boolean,
): LongResolution {
  const exact = table.long.get(name);
  if (exact !== undefined) return { kind: 'match', match: exact };
  if (!abbreviations || name === '') return { kind: 'unknown' };
  return table.prefixes().get(name) ?? { kind: 'unknown' };
}
