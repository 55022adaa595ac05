#!/usr/bin/env -S node --
// The executable: run the built CLI, or say how to build it instead of printing a stack trace.
//
// `--help` and `--version` (and no arguments) load the small ES module entry and nothing else, and
// so does `chat`, whose prompt must be on screen before the agent loads behind it;
// every command runs from the one-file bundle through V8's code cache (./compile-cache.js), which
// skips most of the compiling a command's start-up would otherwise spend. Both are the same CLI,
// built from the same sources. In debug mode the ES modules are used, with source maps, so stack
// traces point at the TypeScript sources.
const argv = process.argv.slice(2);
const debug = process.env.TINY_CLAW_LOG_LEVEL?.toLowerCase() === 'debug';
const light =
  argv.length === 0 ||
  ['--help', '-h', 'help', '--version', '-V', 'version', 'chat'].includes(argv[0]);
let main;
let bundle;
try {
  if (light) {
    ({ main } = await import('../dist/main.js'));
  } else {
    const [{ setFlagsFromString }, { fileURLToPath }] = await Promise.all([
      import('node:v8'),
      import('node:url'),
    ]);
    // WebAssembly (fetch's HTTP parser, the bash grammar) runs on V8's baseline compiler only: its
    // optimising tier compiles the HTTP parser in the background, about 30 MB and 100 ms, mostly
    // while the process is trying to exit, and nothing here parses enough for it to pay off.
    setFlagsFromString('--liftoff-only');
    if (debug) {
      process.setSourceMapsEnabled(true);
      ({ main } = await import('../dist/main.js'));
    } else {
      bundle = fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));
      const { requireWithCompileCache } = await import('./compile-cache.js');
      ({ main } = requireWithCompileCache(bundle));
    }
  }
} catch (error) {
  const notBuilt =
    error?.code === 'ERR_MODULE_NOT_FOUND' || (error?.code === 'ENOENT' && error.path === bundle);
  if (!notBuilt) throw error;
  process.stderr.write(
    `tiny-claw: the CLI is not built (${error.url ?? error.path} is missing). Run 'pnpm build' in the repository first.\n`,
  );
  process.exit(1);
}
process.exitCode = await main(argv);
