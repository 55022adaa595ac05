// Bundle the CLI into dist/, twice from the same sources:
//
// - ESM with code splitting: main.js (the executable's entry for `--help` and `--version`, and in
//   debug mode) and index.js (for embedders), plus lazily imported chunks, so `--help` and
//   `--version` load a few kilobytes and a command loads one chunk graph instead of hundreds of
//   module files (resolving, reading and compiling each file separately cost most of the start-up).
// - One CommonJS file, cli.cjs, that the executable runs every command from through V8's code
//   cache (bin/compile-cache.js): ESM cannot use a code cache on Node 20, and compiling the
//   command path is, after bundling, the largest start-up cost left. Dynamic imports become
//   lazily initialised parts of the file, so what a run does not use is never compiled.
//
// Workspace packages are bundled from their TypeScript sources and npm dependencies are bundled
// too, so nothing outside dist/ is needed at run time. Declarations come from `tsc -b`
// (emitDeclarationOnly).
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist');

mkdirSync(outdir, { recursive: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/main.ts', 'src/index.ts'],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Workspace packages are read from source (the same condition vitest uses).
  conditions: ['@tiny-claw/source'],
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  sourcemap: 'linked',
  sourcesContent: false,
  // Error names come from class names (`error.name`), so they must survive.
  keepNames: true,
  metafile: true,
  logLevel: 'warning',
  // CommonJS dependencies (yaml, OpenTelemetry) call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __tinyClawCreateRequire } from 'node:module'; const require = __tinyClawCreateRequire(import.meta.url);",
  },
  // pg loads its optional native binding only when asked to (NODE_PG_FORCE_NATIVE); it is not
  // installed, and the bundle never needs it.
  external: ['pg-native'],
  plugins: [sourceRewrites()],
});

const cli = await build({
  absWorkingDir: root,
  entryPoints: ['src/main.ts'],
  bundle: true,
  write: false,
  outfile: join(outdir, 'cli.cjs'),
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  conditions: ['@tiny-claw/source'],
  // An import() of a bundled module becomes a lazily initialised part of the file, one of a Node
  // built-in a require() (see sourceRewrites): one script, so one code cache, and no dynamic
  // import left that a vm script would need a loader hook for.
  define: { 'import.meta.url': '__tinyClawModuleUrl' },
  banner: {
    js: [
      "const __tinyClawModuleUrl = require('node:url').pathToFileURL(__filename).href;",
      'const __tinyClawRequire = require;',
    ].join('\n'),
  },
  keepNames: true,
  // No comments and little whitespace: the file is read at every start (debug mode uses the
  // ES modules and their source maps instead). What remains is pure ASCII (esbuild escapes the
  // rest), so it can be read as latin1, four times faster than decoding UTF-8.
  minifyWhitespace: true,
  legalComments: 'none',
  charset: 'ascii',
  metafile: true,
  logLevel: 'warning',
  external: ['pg-native'],
  plugins: [sourceRewrites({ builtinImportsAsRequire: true })],
});
const leftImports = Object.values(cli.metafile.outputs).flatMap((output) =>
  output.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path),
);
if (leftImports.length > 0) {
  throw new Error(`bundle: cli.cjs still imports ${leftImports.join(', ')} dynamically`);
}
// The first line names the build: the code cache of one build must never be used for another
// (V8 itself only compares the source's length).
const cliText = cli.outputFiles[0].text;
if (!/^[\p{ASCII}]*$/u.test(cliText)) throw new Error('bundle: cli.cjs is not pure ASCII');
const buildId = createHash('sha256').update(cliText).digest('hex').slice(0, 16);
// Written as the function the loader calls, so it does not have to build a second 3 MB string.
// ES modules are always strict, and so must the bundle made of them be.
writeFileSync(
  join(outdir, 'cli.cjs'),
  `// tiny-claw build ${buildId}\n(function (exports, require, module, __filename, __dirname) {'use strict';\n${cliText}\n})`,
);

// What an earlier build wrote and this one did not (chunks carry a content hash in their names,
// and before bundling tsc wrote one .js per source file) would otherwise pile up in dist/.
const written = new Set(Object.keys(result.metafile.outputs).map((file) => join(root, file)));
written.add(join(outdir, 'cli.cjs'));
for (const file of walk(outdir)) {
  if (/\.(c?js)(\.map)?$/.test(file) && !written.has(file)) rmSync(file);
}
if (!written.has(join(outdir, 'main.js'))) throw new Error('bundle: dist/main.js was not written');
// The metafile shows what each chunk holds (https://esbuild.github.io/analyze/); on request only,
// and outside dist/, so it is never published.
if (process.argv.includes('--meta')) {
  const file = join(root, 'node_modules', '.cache', 'bundle-meta.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(result.metafile));
  console.log(`bundle: metafile in ${file}`);
}
console.log(`bundle: ${written.size} files in dist/`);

/**
 * Rewrites of the code being bundled, in one `onLoad` (esbuild runs only the first `onLoad` that
 * answers for a file):
 *
 * - `import { z } from 'zod'` binds zod's whole namespace object (every locale included), which
 *   no bundler can tree-shake; `import * as z from 'zod'` means the same to the code and lets
 *   esbuild keep only what is used (≈ 750 KB of zod becomes ≈ 220 KB to compile at start-up).
 * - Files a module finds beside itself at run time — `new URL("x.wasm", import.meta.url)` in a
 *   dependency (web-tree-sitter's runtime) and `new URL('../../../grammar/x.wasm.gz',
 *   import.meta.url)` in a workspace package (the bash grammar the approval risk check's build
 *   copies into that package) — are copied into dist/ next to the chunks, license notices of the
 *   same folder with them, and a relative URL is pointed there.
 * - With `builtinImportsAsRequire` (the CommonJS bundle), `import('<node built-in>')` imports a
 *   one-line module that requires the built-in through the bundle's own require, under a name no
 *   module can shadow (web-tree-sitter declares a `require` of its own in the very function that
 *   imports `module`).
 */
function sourceRewrites({ builtinImportsAsRequire = false } = {}) {
  const zodImport = "import { z } from 'zod';";
  const relativeUrl = /new URL\('(\.\.?\/[^']+)', import\.meta\.url\)/g;
  const urlCall = /new URL\("([^"./][^"]*\.wasm)", import\.meta\.url\)/g;
  return {
    name: 'source-rewrites',
    setup(b) {
      if (builtinImportsAsRequire) {
        b.onResolve({ filter: /.*/ }, (args) =>
          args.kind === 'dynamic-import' && isBuiltin(args.path)
            ? { path: args.path, namespace: 'node-builtin' }
            : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
          contents: `module.exports = __tinyClawRequire(${JSON.stringify(args.path)});`,
          loader: 'js',
        }));
      }
      b.onLoad({ filter: /\.(ts|js|mjs)$/ }, (args) => {
        if (args.path.endsWith('.d.ts')) return undefined;
        const source = readFileSync(args.path, 'utf8');
        let contents = source;
        if (contents.includes(zodImport)) {
          contents = contents.replaceAll(zodImport, "import * as z from 'zod';");
        }
        contents = contents.replace(relativeUrl, (_, path) => {
          const file = join(dirname(args.path), path);
          if (!existsSync(file)) {
            throw new Error(
              `bundle: ${args.path} needs ${file}, which is missing (build its package first)`,
            );
          }
          copyFileSync(file, join(outdir, basename(file)));
          for (const notice of readdirSync(dirname(file)).filter((name) =>
            name.endsWith('LICENSE'),
          )) {
            copyFileSync(join(dirname(file), notice), join(outdir, notice));
          }
          return `new URL(${JSON.stringify(`./${basename(file)}`)}, import.meta.url)`;
        });
        for (const match of contents.matchAll(urlCall)) {
          copyFileSync(join(dirname(args.path), match[1]), join(outdir, match[1]));
        }
        if (contents === source) return undefined;
        return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}
