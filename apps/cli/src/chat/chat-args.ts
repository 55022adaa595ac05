import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

/** The modes a turn runs in (as `run --mode`). */
export const CHAT_MODES = ['act', 'think', 'plan', 'plan-act'] as const;
/** One of {@link CHAT_MODES}. */
export type ChatMode = (typeof CHAT_MODES)[number];

/** Options of `tiny-claw chat`, validated. */
export interface ChatArgs {
  session: string | undefined;
  mode: ChatMode;
  /** Reopen the workdir's most recently used session. */
  continue: boolean;
  workdir: string | undefined;
  maxSteps: number;
  help: boolean;
}

/** Options of `tiny-claw sessions`, validated. */
export interface SessionsArgs {
  json: boolean;
  workdir: string | undefined;
  help: boolean;
}

/**
 * Whether `value` is one of the chat modes.
 *
 * @example
 * isChatMode('plan'); // true
 */
export function isChatMode(value: string): value is ChatMode {
  return (CHAT_MODES as readonly string[]).includes(value);
}

function noPositionals(command: string, positionals: string[]): void {
  if (positionals.length > 0) {
    throw new UsageError(
      `${command} takes no prompt or other words, got ${JSON.stringify(positionals.join(' '))}: type the prompt at the chat prompt, or use 'tiny-claw run "<prompt>"'`,
      command,
    );
  }
}

/**
 * Parse `tiny-claw chat` arguments; throws {@link UsageError} for anything wrong.
 *
 * @example
 * parseChatArgs(['--session', 'auth', '--mode', 'plan']);
 */
export function parseChatArgs(argv: string[]): ChatArgs {
  const { values, positionals } = parseCommandArgs('chat', argv, {
    session: { type: 'string' },
    mode: { type: 'string', default: 'act' },
    continue: { type: 'boolean', default: false },
    workdir: { type: 'string' },
    'max-steps': { type: 'string', default: '20' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  noPositionals('chat', positionals);
  const mode = String(values.mode);
  if (!isChatMode(mode)) {
    throw new UsageError(
      `--mode ${JSON.stringify(mode)} is not supported: expected act, think, plan or plan-act`,
      'chat',
    );
  }
  const session = values.session as string | undefined;
  if (session === '') throw new UsageError('--session needs a non-empty name', 'chat');
  if (session !== undefined && values.continue === true) {
    throw new UsageError(
      '--session and --continue both choose the session: give one of them',
      'chat',
    );
  }
  const workdir = values.workdir as string | undefined;
  if (workdir === '') throw new UsageError('--workdir needs a directory', 'chat');
  const steps = String(values['max-steps']);
  const maxSteps = Number(steps);
  if (!/^[0-9]+$/.test(steps) || maxSteps < 1 || maxSteps > 1000) {
    throw new UsageError(
      `--max-steps ${JSON.stringify(steps)} is not valid: expected an integer from 1 to 1000`,
      'chat',
    );
  }
  return {
    session,
    mode,
    continue: values.continue === true,
    workdir,
    maxSteps,
    help: values.help === true,
  };
}

/**
 * Parse `tiny-claw sessions` arguments; throws {@link UsageError} for anything wrong.
 *
 * @example
 * parseSessionsArgs(['--json']);
 */
export function parseSessionsArgs(argv: string[]): SessionsArgs {
  const { values, positionals } = parseCommandArgs('sessions', argv, {
    json: { type: 'boolean', default: false },
    workdir: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  noPositionals('sessions', positionals);
  const workdir = values.workdir as string | undefined;
  if (workdir === '') throw new UsageError('--workdir needs a directory', 'sessions');
  return { json: values.json === true, workdir, help: values.help === true };
}
