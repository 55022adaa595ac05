// Copy the bash grammar into the package at build time: grammar/tree-sitter-bash.wasm.gz and its
// license notice beside it. tree-sitter-bash is only a devDependency: the published package ships
// the one file it uses (gzip-compressed, 1.3 MB down to about 185 KB) instead of making every
// install fetch the whole grammar package, its native sources and its install script.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const grammarDir = join(root, 'grammar');

let wasm;
try {
  wasm = require.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
} catch {
  console.error('copy-grammar: tree-sitter-bash is not installed; run `pnpm install` first');
  process.exit(1);
}
const source = dirname(wasm);
const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));

mkdirSync(grammarDir, { recursive: true });
// Node writes mtime 0 into the gzip header: the same grammar always makes the same bytes.
writeFileSync(
  join(grammarDir, 'tree-sitter-bash.wasm.gz'),
  gzipSync(readFileSync(wasm), { level: constants.Z_BEST_COMPRESSION }),
);
const license = readFileSync(join(source, 'LICENSE'), 'utf8');
writeFileSync(
  join(grammarDir, 'tree-sitter-bash.LICENSE'),
  `tree-sitter-bash.wasm.gz is the WebAssembly build of tree-sitter-bash ${version}\n(https://github.com/tree-sitter/tree-sitter-bash), compressed with gzip, under this license:\n\n${license}`,
);
console.log(`copy-grammar: tree-sitter-bash ${version} in grammar/`);
