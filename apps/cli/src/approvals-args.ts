import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ApprovalError, ConfigurationError, validateSessionName } from '@tiny-claw/core';
import type { Application } from '@tiny-claw/runtime';
import { z } from 'zod';
import { approvalsText } from './approvals-strings.js';
import { UsageError } from './usage-error.js';

/** A stored approval request, as the runtime returns it. */
export type ApprovalRecord = NonNullable<Awaited<ReturnType<Application['approval']>>>;
/** Where an approval request stands. */
export type ApprovalStatus = ApprovalRecord['status'];

/** Every status, for `--status` (the type check below keeps the list complete). */
export const approvalStatuses = [
  'pending',
  'claimed',
  'consumed',
  'rejected',
  'expired',
  'failed',
  'unknown_outcome',
] as const satisfies readonly ApprovalStatus[];
type MissingStatus = Exclude<ApprovalStatus, (typeof approvalStatuses)[number]>;
const complete: MissingStatus extends never ? true : never = true;
void complete;

/** Which session and workdir a decision is made from (as `run --session/--workdir` chose them). */
export interface DecisionScope {
  session: string | undefined;
  workdir: string | undefined;
}

/** `tiny-claw approvals …`, validated. */
export type ApprovalsArgs =
  | { action: 'help' }
  | ({ action: 'list'; status: ApprovalStatus | undefined; json: boolean } & DecisionScope)
  | { action: 'show'; id: string; json: boolean }
  | ({ action: 'approve'; id: string; json: boolean } & DecisionScope)
  | ({ action: 'reject'; id: string; reason: string | undefined; json: boolean } & DecisionScope);

// The stores check ids again before any path join; checking here too refuses a malformed id
// before settings, the state dir or any other file is read.
const idSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);

const scopeSchema = z.object({
  session: z
    .string()
    .min(1, { error: approvalsText.emptyOption('--session') })
    .optional(),
  workdir: z
    .string()
    .min(1, { error: approvalsText.emptyOption('--workdir') })
    .optional(),
});

const statusSchema = z
  .enum(approvalStatuses, {
    error: (issue) => approvalsText.badStatus(String(issue.input), approvalStatuses),
  })
  .optional();

/**
 * Parse the arguments after `tiny-claw approvals`. Throws {@link UsageError} (exit 2) for a bad
 * subcommand or flag, and an `ApprovalError` (`invalid_id`, exit 1) for a malformed id: that is a
 * refused decision, reported before any file is touched.
 *
 * @example
 * parseApprovalsArgs(['reject', 'ap_0bX3kR9d2LqvYw7aP1sT4g', 'not', 'on', 'main']);
 * // { action: 'reject', id: 'ap_0bX3…', reason: 'not on main', json: false, session: undefined, workdir: undefined }
 */
export function parseApprovalsArgs(argv: string[]): ApprovalsArgs {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h' || sub === 'help') return { action: 'help' };
  if (sub === undefined) throw new UsageError(approvalsText.needsSubcommand, 'approvals');
  if (sub === 'list') {
    const { values, positionals } = parse(rest, {
      status: { type: 'string' },
      session: { type: 'string' },
      workdir: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    });
    if (values.help) return { action: 'help' };
    if (positionals.length > 0)
      throw new UsageError(approvalsText.listTakesNoArgs(positionals.join(' ')), 'approvals');
    const status = statusSchema.safeParse(values.status);
    if (!status.success) throw usage(status.error);
    return {
      action: 'list',
      status: status.data,
      json: values.json === true,
      ...scope(values),
    };
  }
  if (sub === 'show') {
    const { values, positionals } = parse(rest, {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    });
    if (values.help) return { action: 'help' };
    if (positionals.length > 1)
      throw new UsageError(
        approvalsText.tooManyArgs(sub, positionals.slice(1).join(' ')),
        'approvals',
      );
    return { action: 'show', id: approvalId(sub, positionals[0]), json: values.json === true };
  }
  if (sub === 'approve' || sub === 'reject') {
    const { values, positionals } = parse(rest, {
      session: { type: 'string' },
      workdir: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    });
    if (values.help) return { action: 'help' };
    const [first, ...more] = positionals;
    if (sub === 'approve' && more.length > 0)
      throw new UsageError(approvalsText.tooManyArgs(sub, more.join(' ')), 'approvals');
    const id = approvalId(sub, first);
    const common = { id, json: values.json === true, ...scope(values) };
    if (sub === 'approve') return { action: 'approve', ...common };
    const reason = more.join(' ').trim();
    if (more.length > 0 && reason === '')
      throw new UsageError(approvalsText.emptyReason, 'approvals');
    return { action: 'reject', reason: reason === '' ? undefined : reason, ...common };
  }
  throw new UsageError(approvalsText.unknownSubcommand(sub), 'approvals');
}

function parse<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    // node:util's message is good; only its error-code prefix is noise for a person.
    throw new UsageError(
      (error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''),
      'approvals',
    );
  }
}

function approvalId(sub: string, id: string | undefined): string {
  if (id === undefined) throw new UsageError(approvalsText.needsId(sub), 'approvals');
  if (!idSchema.safeParse(id).success)
    throw new ApprovalError('invalid_id', approvalsText.badId(id));
  return id;
}

function scope(values: {
  session?: string | boolean | undefined;
  workdir?: string | boolean | undefined;
}): DecisionScope {
  const parsed = scopeSchema.safeParse({ session: values.session, workdir: values.workdir });
  if (!parsed.success) throw usage(parsed.error);
  const { session, workdir } = parsed.data;
  if (session !== undefined) {
    try {
      validateSessionName(session);
    } catch (error) {
      if (error instanceof ConfigurationError)
        throw new UsageError(`--session: ${error.message}`, 'approvals');
      throw error;
    }
  }
  return { session, workdir };
}

function usage(error: z.ZodError): UsageError {
  return new UsageError(error.issues[0]?.message ?? 'invalid arguments', 'approvals');
}
