import { createRequire } from 'node:module';
import type { Parser as ParserType } from 'web-tree-sitter';

let loading: Promise<ParserType> | undefined;

async function load(): Promise<ParserType> {
  // Imported here, not at the top: a run that never judges a bash call never loads the wasm.
  const { Language, Parser } = await import('web-tree-sitter');
  await Parser.init();
  const grammar = createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
  const language = await Language.load(grammar);
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

/**
 * The bash parser, loaded on first use and shared afterwards (the grammar is a 1.3 MB wasm
 * module; loading it takes about 20 ms once). Parsing is synchronous, so sharing one parser
 * between concurrent analyses is safe.
 *
 * @throws Error when the grammar cannot be loaded; a later call tries again.
 * @example
 * const parser = await bashParser();
 * const tree = parser.parse('ls -la');
 */
export function bashParser(): Promise<ParserType> {
  if (loading === undefined) {
    loading = load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  }
  return loading;
}
