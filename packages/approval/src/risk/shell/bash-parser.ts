import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Parser as ParserType } from 'web-tree-sitter';

/**
 * The bash grammar, copied into the package by its build (the same two directories up from this
 * module's folder in the sources and in `dist`). Written as a literal URL relative to the module
 * so a bundler that copies assets, like the CLI's, can find and move it.
 */
const GRAMMAR = new URL('../../../grammar/tree-sitter-bash.wasm.gz', import.meta.url);

let loading: Promise<ParserType> | undefined;

async function grammarBytes(): Promise<Uint8Array> {
  let compressed: Buffer;
  try {
    compressed = await readFile(GRAMMAR);
  } catch (error) {
    throw new Error(
      `the bash grammar of @tiny-claw/approval is missing (${fileURLToPath(GRAMMAR)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}); reinstall @tiny-claw/approval, or in its repository run \`pnpm --filter @tiny-claw/approval build\``,
    );
  }
  try {
    return gunzipSync(compressed);
  } catch (error) {
    throw new Error(
      `the bash grammar of @tiny-claw/approval is damaged (${fileURLToPath(GRAMMAR)}: ${(error as Error).message}); reinstall @tiny-claw/approval`,
    );
  }
}

async function load(): Promise<ParserType> {
  // Imported here, not at the top: a run that never judges a bash call never loads the wasm.
  const { Language, Parser } = await import('web-tree-sitter');
  await Parser.init();
  const language = await Language.load(await grammarBytes());
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
