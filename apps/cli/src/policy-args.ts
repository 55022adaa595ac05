import { parseArgs } from 'node:util';
import { z } from 'zod';
import { UsageError } from './usage-error.js';

/** `tiny-claw policy check`, validated. */
export interface PolicyCheckArgs {
  readonly action: 'check';
  readonly json: boolean;
  readonly help: boolean;
  readonly workdir: string | undefined;
  readonly tool: string;
  readonly path: string | undefined;
  /** The command after `--` (its words joined by spaces), or undefined to read stdin. */
  readonly command: string | undefined;
}

/** `tiny-claw policy rules`, validated. */
export interface PolicyRulesArgs {
  readonly action: 'rules';
  readonly json: boolean;
  readonly help: boolean;
  readonly workdir: string | undefined;
}

/** `tiny-claw policy` with no action or `--help`. */
export interface PolicyHelpArgs {
  readonly action: 'help';
}

/** Any `tiny-claw policy` invocation. */
export type PolicyArgs = PolicyCheckArgs | PolicyRulesArgs | PolicyHelpArgs;

const checkSchema = z
  .object({
    tool: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/, {
      error: (issue) =>
        `--tool ${JSON.stringify(issue.input)} is not a tool name (e.g. bash, write, edit)`,
    }),
    path: z.string().min(1, { error: '--path needs a path' }).optional(),
    workdir: z.string().min(1, { error: '--workdir needs a directory' }).optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.tool === 'write' || value.tool === 'edit') && value.path === undefined)
      ctx.addIssue({ code: 'custom', message: `--tool ${value.tool} needs --path P` });
    if (value.tool === 'bash' && value.path !== undefined)
      ctx.addIssue({ code: 'custom', message: '--path is for --tool write or edit, not bash' });
  });

function parse(argv: string[], withTool: boolean) {
  try {
    return parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        workdir: { type: 'string' },
        ...(withTool
          ? { tool: { type: 'string', default: 'bash' }, path: { type: 'string' } }
          : {}),
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(
      (error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''),
      'policy',
    );
  }
}

/**
 * Parse `tiny-claw policy check|rules …`. For `check`, the words after `--` are the command to
 * judge (joined by spaces); without them the command is read from stdin.
 *
 * @throws UsageError for anything wrong (exit 2).
 * @example
 * parsePolicyArgs(['check', '--json', '--', 'npm', 'test']);
 */
export function parsePolicyArgs(argv: string[]): PolicyArgs {
  const [action, ...rest] = argv;
  if (action === undefined || action === '--help' || action === '-h') return { action: 'help' };
  const dashes = rest.indexOf('--');
  const options = dashes === -1 ? rest : rest.slice(0, dashes);
  const after = dashes === -1 ? undefined : rest.slice(dashes + 1);
  if (action === 'rules') {
    if (after !== undefined) throw new UsageError('policy rules takes no command', 'policy');
    const { values, positionals } = parse(options, false);
    if (positionals.length > 0)
      throw new UsageError(
        `policy rules takes no arguments, got ${JSON.stringify(positionals.join(' '))}`,
        'policy',
      );
    const workdir = values.workdir as string | undefined;
    if (workdir === '') throw new UsageError('--workdir needs a directory', 'policy');
    return { action: 'rules', json: values.json === true, help: values.help === true, workdir };
  }
  if (action !== 'check')
    throw new UsageError(
      `unknown policy action ${JSON.stringify(action)}: expected check or rules`,
      'policy',
    );
  const { values, positionals } = parse(options, true);
  if (positionals.length > 0)
    throw new UsageError(
      `put the command to check after --, as in: tiny-claw policy check -- ${positionals.join(' ')}`,
      'policy',
    );
  const checked = checkSchema.safeParse({
    tool: values.tool,
    path: values.path,
    workdir: values.workdir,
  });
  if (!checked.success)
    throw new UsageError(checked.error.issues.map((issue) => issue.message).join('; '), 'policy');
  if (checked.data.tool !== 'bash' && after !== undefined)
    throw new UsageError('a command after -- is only for --tool bash', 'policy');
  if (after !== undefined && after.join(' ').trim() === '')
    throw new UsageError('the command after -- is empty', 'policy');
  return {
    action: 'check',
    json: values.json === true,
    help: values.help === true,
    workdir: checked.data.workdir,
    tool: checked.data.tool,
    path: checked.data.path,
    command: after?.join(' '),
  };
}
