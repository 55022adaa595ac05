import { serverHelp } from './help.js';
import { serverVersion } from './version.js';

/** Exit codes of `tiny-claw-server`. */
export const ServerExit = {
  ok: 0,
  runtime: 1,
  usage: 2,
  configuration: 78,
  /** A second Ctrl-C: quit without waiting for running work. */
  interrupted: 130,
  terminated: 143,
} as const;

/** Where the command writes, and the process it runs in (replaceable in tests). */
export interface ServerProcess {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  homeDir: string;
  /** Call `handler` on SIGINT and SIGTERM; returns a function that removes it. */
  onSignal(handler: (signal: 'SIGINT' | 'SIGTERM') => void): () => void;
  /** Leave at once (a second signal). */
  exit(code: number): void;
}

/**
 * Entry point of `tiny-claw-server`: parse flags, load settings (real environment, then
 * `--env-file` or `./.env`), start listening, and on SIGINT or SIGTERM shut down gracefully
 * (a second signal quits at once). Resolves to the exit code; never throws. `--help` and
 * `--version` load nothing else.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2), nodeProcess());
 */
export async function main(argv: readonly string[], proc: ServerProcess): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    proc.stdout(serverHelp);
    return ServerExit.ok;
  }
  if (argv.includes('--version') || argv.includes('-V')) {
    proc.stdout(`tiny-claw-server ${serverVersion()}\n`);
    return ServerExit.ok;
  }
  const { parseServerArgs, UsageError } = await import('./args.js');
  try {
    const args = parseServerArgs(argv);
    if (args.action !== 'serve') {
      proc.stdout(args.action === 'help' ? serverHelp : `tiny-claw-server ${serverVersion()}\n`);
      return ServerExit.ok;
    }
    const { serve } = await import('./serve.js');
    return await serve(args, proc);
  } catch (error) {
    if (error instanceof UsageError) {
      proc.stderr(`tiny-claw-server: ${error.message}\nRun 'tiny-claw-server --help' for usage.\n`);
      return ServerExit.usage;
    }
    const { TinyClawError } = await import('@tiny-claw/core');
    if (TinyClawError.isInstance(error)) {
      proc.stderr(`tiny-claw-server: ${error.message.replaceAll('\n', '\n  ')}\n`);
      return error.code === 'configuration' ? ServerExit.configuration : ServerExit.runtime;
    }
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    proc.stderr(`tiny-claw-server: unexpected error: ${detail}\n`);
    return ServerExit.runtime;
  }
}
