import { z } from 'zod';
import { parseCommandArgs } from './parse-command-args.js';
import { UsageError } from './usage-error.js';

/** Options of `tiny-claw run`, validated. */
export interface RunArgs {
  prompt: string | undefined;
  readStdin: boolean;
  mode: 'act' | 'think' | 'plan' | 'plan-act';
  session: string | undefined;
  /** Run in the workdir's most recently used session (`--continue`). */
  continue: boolean;
  maxSteps: number;
  workdir: string | undefined;
  json: boolean;
  help: boolean;
}

/** Options of `tiny-claw health`, validated. */
export interface HealthArgs {
  json: boolean;
  help: boolean;
}

const runSchema = z.object({
  mode: z.enum(['act', 'think', 'plan', 'plan-act'], {
    error: (issue) =>
      `--mode ${JSON.stringify(issue.input)} is not supported: expected act, think, plan or plan-act`,
  }),
  maxSteps: z
    .string()
    .regex(/^[0-9]+$/, {
      error: (issue) =>
        `--max-steps ${JSON.stringify(issue.input)} is not a whole number: expected an integer from 1 to 1000`,
    })
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1000, { error: '--max-steps must be an integer from 1 to 1000' }),
  session: z.string().min(1, { error: '--session needs a non-empty name' }).optional(),
  workdir: z.string().min(1, { error: '--workdir needs a directory' }).optional(),
});

/**
 * Parse `tiny-claw run` arguments; throws {@link UsageError} for anything wrong.
 *
 * @example
 * parseRunArgs(['hello', '--max-steps', '3']);
 */
export function parseRunArgs(argv: string[]): RunArgs {
  const { values, positionals } = parseCommandArgs('run', argv, {
    mode: { type: 'string', default: 'act' },
    session: { type: 'string' },
    continue: { type: 'boolean', default: false },
    'max-steps': { type: 'string', default: '20' },
    workdir: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const parsed = runSchema.safeParse({
    mode: values.mode,
    maxSteps: values['max-steps'],
    session: values.session,
    workdir: values.workdir,
  });
  if (!parsed.success)
    throw new UsageError(parsed.error.issues[0]?.message ?? 'invalid arguments', 'run');
  if (parsed.data.session !== undefined && values.continue === true) {
    throw new UsageError(
      '--session and --continue both choose the session: give one of them',
      'run',
    );
  }
  const readStdin = positionals.length === 1 && positionals[0] === '-';
  return {
    prompt: readStdin || positionals.length === 0 ? undefined : positionals.join(' '),
    readStdin,
    mode: parsed.data.mode,
    session: parsed.data.session,
    continue: values.continue === true,
    maxSteps: parsed.data.maxSteps,
    workdir: parsed.data.workdir,
    json: values.json === true,
    help: values.help === true,
  };
}

/**
 * Parse `tiny-claw health` arguments; throws {@link UsageError} for anything wrong.
 *
 * @example
 * parseHealthArgs(['--json']);
 */
export function parseHealthArgs(argv: string[]): HealthArgs {
  const { values, positionals } = parseCommandArgs('health', argv, {
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (positionals.length > 0) {
    throw new UsageError(
      `health takes no arguments, got ${JSON.stringify(positionals.join(' '))}`,
      'health',
    );
  }
  return { json: values.json === true, help: values.help === true };
}

/** Options of `tiny-claw trust` and `tiny-claw untrust`, validated. */
export interface TrustArgs {
  /** The folder as typed; undefined means the current directory. */
  dir: string | undefined;
  help: boolean;
}

/**
 * Parse `tiny-claw trust [DIR]` or `tiny-claw untrust [DIR]`; throws {@link UsageError} for
 * anything wrong.
 *
 * @example
 * parseTrustArgs('trust', ['../other-repo']);
 */
export function parseTrustArgs(command: 'trust' | 'untrust', argv: string[]): TrustArgs {
  const { values, positionals } = parseCommandArgs(command, argv, {
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (positionals.length > 1) {
    throw new UsageError(
      `${command} takes at most one folder, got ${positionals.length}: ${JSON.stringify(positionals.join(' '))}`,
      command,
    );
  }
  if (positionals[0] === '') throw new UsageError(`${command} needs a folder, got ""`, command);
  return { dir: positionals[0], help: values.help === true };
}
