import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

/** What `tiny-claw plan` does. */
export type PlanAction = 'show' | 'reset';

/** Options of `tiny-claw plan`, validated. `action` is undefined only with `--help`. */
export interface PlanArgs {
  action: PlanAction | undefined;
  session: string | undefined;
  workdir: string | undefined;
  json: boolean;
  help: boolean;
}

/** Help of `tiny-claw plan`. */
export const planHelp = `Usage: tiny-claw plan show|reset [options]

Show or delete the plan (PLAN.md and TODO.md) of a session. Plans are written by
'tiny-claw run --mode plan' and executed, one TODO item at a time, by 'tiny-claw run --mode plan-act'.

Actions:
  show              print PLAN.md, TODO.md and the next open TODO item
  reset             delete the session's plan files, so the next plan run starts a new plan

Options:
  --session NAME    named session (default: "default")
  --workdir DIR     directory the session belongs to (default: TINY_CLAW_WORKDIR or the current directory)
  --json            print the result as JSON
  -h, --help        show this help
`;

const actions: readonly string[] = ['show', 'reset'];

/**
 * Parse `tiny-claw plan` arguments; throws {@link UsageError} for anything wrong.
 *
 * @example
 * parsePlanArgs(['show', '--session', 'auth']); // { action: 'show', session: 'auth', … }
 */
export function parsePlanArgs(argv: string[]): PlanArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''), 'plan');
  }
  const { values, positionals } = parsed;
  const help = values.help === true;
  const [action, ...extra] = positionals;
  if (!help) {
    if (action === undefined) throw new UsageError('plan needs an action: show or reset', 'plan');
    if (!actions.includes(action)) {
      throw new UsageError(
        `unknown plan action ${JSON.stringify(action)}: expected show or reset`,
        'plan',
      );
    }
    if (extra.length > 0) {
      throw new UsageError(
        `plan ${action} takes no further arguments, got ${JSON.stringify(extra.join(' '))}`,
        'plan',
      );
    }
  }
  if (values.session === '') {
    throw new UsageError('--session needs a non-empty name', 'plan');
  }
  if (values.workdir === '') {
    throw new UsageError('--workdir needs a directory', 'plan');
  }
  return {
    action: action !== undefined && actions.includes(action) ? (action as PlanAction) : undefined,
    session: values.session,
    workdir: values.workdir,
    json: values.json === true,
    help,
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      session: { type: 'string' },
      workdir: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
}
