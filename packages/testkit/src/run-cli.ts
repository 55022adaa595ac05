import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a CLI process did. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** How to run the CLI for a test. */
export interface RunCliOptions {
  /** Path of the CLI's JavaScript entry (e.g. apps/cli/bin/tiny-claw.js). */
  bin: string;
  args: readonly string[];
  /**
   * Added to a minimal environment (PATH, HOME, and an empty user-config folder); the developer's
   * own keys and settings never leak in.
   */
  env?: Record<string, string>;
  cwd?: string;
  stdin?: string;
  /** Kill the process after this long (default 30 s). */
  timeoutMs?: number;
}

/**
 * Run the CLI as a child process with a clean environment and collect its output.
 *
 * @example
 * const { code, stdout } = await runCli({ bin, args: ['run', 'hello'], env: { TINY_CLAW_STATE_DIR: dir } });
 */
export function runCli(options: RunCliOptions): Promise<CliResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    // The developer's own ~/.config/tiny-claw/.env must not reach the CLI under test either.
    XDG_CONFIG_HOME: join(tmpdir(), 'tiny-claw-test-no-user-config'),
    // Compile caches of the CLI under test stay out of the developer's ~/.cache.
    XDG_CACHE_HOME: join(tmpdir(), 'tiny-claw-test-cache'),
    NO_COLOR: '1',
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    // `--` as the bin's shebang has it: Node 20 would otherwise take a later --env-file for itself.
    const child = spawn(process.execPath, ['--', options.bin, ...options.args], {
      cwd: options.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}
