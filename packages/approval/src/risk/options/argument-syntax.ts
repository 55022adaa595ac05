import type { ShellWord } from '../shell/shell-word.js';
import { type OptionSource, type ReaderHabits, readOptions } from './option-reader.js';
import { type LongResolution, type OptionTable, resolveLong } from './option-table.js';
import type { ParsedArguments } from './parsed-arguments.js';
import { readTree } from './tree-syntax.js';
import { readXxd } from './xxd-syntax.js';

/**
 * One layer of git's option parsing: a subcommand's own options, then the revision options, then
 * the diff options, each layer trying a word only when the layers before it did not know it.
 *
 * @example
 * const own: GitLayer = { table: BLAME_OPTIONS, abbreviations: true };
 */
export interface GitLayer {
  readonly table: OptionTable;
  /** Whether this layer accepts unique prefixes of its long options (git's parse-options). */
  readonly abbreviations: boolean;
}

/**
 * How a program parses its command line, by parser family:
 * - `getopt`: GNU getopt_long (unique prefixes of long options, options anywhere until `--`),
 *   or with `abbreviations: false` and `stopAtOperand` a simpler parser such as a bash builtin's;
 * - `clap`: ripgrep's parser (long options by exact name only, options anywhere);
 * - `git`: git's layers (see {@link GitLayer});
 * - `tree`, `xxd`: those programs' own hand-written parsers;
 * - `text`: no options at all, every word is an operand (echo, expr).
 *
 * @example
 * const sort: ArgumentSyntax = { kind: 'getopt', table: SORT_OPTIONS };
 */
export type ArgumentSyntax =
  | ({
      readonly kind: 'getopt';
      readonly table: OptionTable;
      readonly abbreviations?: boolean;
    } & ReaderHabits)
  | { readonly kind: 'clap'; readonly table: OptionTable }
  | ({ readonly kind: 'git'; readonly layers: readonly GitLayer[] } & ReaderHabits)
  | { readonly kind: 'tree'; readonly table: OptionTable }
  | { readonly kind: 'xxd'; readonly table: OptionTable }
  | { readonly kind: 'text' };

function tableSource(table: OptionTable, abbreviations: boolean): OptionSource {
  return {
    long: (name) => resolveLong(table, name, abbreviations),
    short: (spelled) => table.short.get(spelled),
    risky: table.risky,
  };
}

function layeredSource(layers: readonly GitLayer[]): OptionSource {
  return {
    long: (name) => {
      for (const layer of layers) {
        const resolution: LongResolution = resolveLong(layer.table, name, layer.abbreviations);
        if (resolution.kind !== 'unknown') return resolution;
      }
      return { kind: 'unknown' };
    },
    short: (spelled) => {
      for (const layer of layers) {
        const match = layer.table.short.get(spelled);
        if (match !== undefined) return match;
      }
      return undefined;
    },
    risky: layers.some((layer) => layer.table.risky),
  };
}

const SOURCES = new WeakMap<ArgumentSyntax, OptionSource>();

function sourceOf(syntax: ArgumentSyntax & { kind: 'getopt' | 'clap' | 'git' }): OptionSource {
  let source = SOURCES.get(syntax);
  if (source === undefined) {
    if (syntax.kind === 'git') source = layeredSource(syntax.layers);
    else if (syntax.kind === 'clap') source = tableSource(syntax.table, false);
    else source = tableSource(syntax.table, syntax.abbreviations !== false);
    SOURCES.set(syntax, source);
  }
  return source;
}

const CLAP_HABITS: ReaderHabits = { shortEquals: true };

/**
 * Split `args` the way the program named `program` will, by its parser family.
 *
 * @example
 * parseArguments('sort', { kind: 'getopt', table: SORT_OPTIONS }, words('--outp=x in'));
 */
export function parseArguments(
  program: string,
  syntax: ArgumentSyntax,
  args: readonly ShellWord[],
): ParsedArguments {
  switch (syntax.kind) {
    case 'tree':
      return readTree(program, syntax.table, args);
    case 'xxd':
      return readXxd(program, syntax.table, args);
    case 'text':
      return { options: [], operands: args, problems: [] };
    case 'clap':
      return readOptions(program, sourceOf(syntax), CLAP_HABITS, args);
    default:
      return readOptions(program, sourceOf(syntax), syntax, args);
  }
}
