#!/usr/bin/env node
// The executable: load the built server, or say how to build it instead of printing a stack trace.
import { homedir } from 'node:os';

let main;
try {
  ({ main } = await import('../dist/main.js'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  process.stderr.write(
    `tiny-claw-server: the server is not built (${error.url ?? 'dist/main.js'} is missing). Run 'pnpm build' in the repository first.\n`,
  );
  process.exit(1);
}
const code = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  homeDir: homedir(),
  onSignal: (handler) => {
    const onInt = () => handler('SIGINT');
    const onTerm = () => handler('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    return () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    };
  },
  exit: (code) => process.exit(code),
});
process.exitCode = code;
// After a shutdown, a connection pool or timer of the Feishu SDK must not keep the process alive.
setTimeout(() => process.exit(code), 2000).unref();
