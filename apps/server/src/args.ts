import { parseArgs } from 'node:util';
import { type RunMode, runModes } from '@tiny-claw/core';

/** The most steps a chat run may be given. */
export const MAX_STEPS_LIMIT = 1000;

/**
 * The parsed command line: each option undefined when not given (settings supply the default).
 *
 * @example
 * const args: ServerArgs = { action: 'serve', port: 0 };
 */
export type ServerArgs =
  | { action: 'help' }
  | { action: 'version' }
  | {
      action: 'serve';
      host?: string;
      port?: number;
      feishuPath?: string;
      mode?: RunMode;
      maxSteps?: number;
      envFile?: string;
      /** Consent to a workdir of `/` or the home directory with tools that change files. */
      allowRootWorkdir?: boolean;
    };

/**
 * Wrong command-line usage (exit 2), with a message saying what to change.
 *
 * @example
 * throw new UsageError('--port must be an integer from 0 to 65535');
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Parse `tiny-claw-server`'s arguments (Node's own `parseArgs`, strict: unknown flags and stray
 * arguments are errors).
 *
 * @throws UsageError naming the bad flag or value.
 * @example
 * parseServerArgs(['--port', '9000', '--mode', 'think']); // { action: 'serve', port: 9000, mode: 'think' }
 */
export function parseServerArgs(argv: readonly string[]): ServerArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'feishu-path': { type: 'string' },
        mode: { type: 'string' },
        'max-steps': { type: 'string' },
        'env-file': { type: 'string' },
        'allow-root-workdir': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'V' },
      },
    }));
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? (error.message.split('\n')[0] ?? 'bad arguments') : String(error),
    );
  }
  if (values.help) return { action: 'help' };
  if (values.version) return { action: 'version' };
  const args: ServerArgs = { action: 'serve' };
  const text = (name: string) => {
    const value = values[name];
    if (typeof value !== 'string') return undefined;
    if (value.trim() === '') throw new UsageError(`--${name} needs a value`);
    return value;
  };
  const host = text('host');
  if (host !== undefined) args.host = host;
  const port = text('port');
  if (port !== undefined) args.port = integer('port', port, 0, 65535);
  const path = text('feishu-path');
  if (path !== undefined) {
    if (!/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(path)) {
      throw new UsageError(
        `--feishu-path must be a URL path starting with "/", e.g. /api/events/feishu (got ${JSON.stringify(path)})`,
      );
    }
    args.feishuPath = path;
  }
  const mode = text('mode');
  if (mode !== undefined) {
    if (!(runModes as readonly string[]).includes(mode)) {
      throw new UsageError(
        `--mode must be one of ${runModes.join(', ')} (got ${JSON.stringify(mode)})`,
      );
    }
    args.mode = mode as RunMode;
  }
  const steps = text('max-steps');
  if (steps !== undefined) args.maxSteps = integer('max-steps', steps, 1, MAX_STEPS_LIMIT);
  const envFile = text('env-file');
  if (envFile !== undefined) args.envFile = envFile;
  if (values['allow-root-workdir'] === true) args.allowRootWorkdir = true;
  return args;
}

function integer(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(
      `--${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`,
    );
  }
  return Number(raw);
}
