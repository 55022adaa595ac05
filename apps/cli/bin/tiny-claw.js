#!/usr/bin/env -S node --
// The executable: load the built CLI, or say how to build it instead of printing a stack trace.
import { setFlagsFromString } from 'node:v8';

// The CLI is bundled; in debug mode stack traces point at the TypeScript sources through the
// bundle's source maps (read only then: they cost start-up time).
if (process.env.TINY_CLAW_LOG_LEVEL?.toLowerCase() === 'debug') process.setSourceMapsEnabled(true);
// WebAssembly (fetch's HTTP parser, the bash grammar) runs on V8's baseline compiler only: its
// optimising tier compiles the HTTP parser in the background, about 30 MB and 100 ms, mostly
// while the process is trying to exit, and nothing here parses enough for it to pay off.
setFlagsFromString('--liftoff-only');
let main;
try {
  ({ main } = await import('../dist/main.js'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  process.stderr.write(
    `tiny-claw: the CLI is not built (${error.url ?? 'dist/main.js'} is missing). Run 'pnpm build' in the repository first.\n`,
  );
  process.exit(1);
}
process.exitCode = await main(process.argv.slice(2));
