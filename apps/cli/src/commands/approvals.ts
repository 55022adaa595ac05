import { ConfigurationError } from '@tiny-claw/core';
import type { Application } from '@tiny-claw/runtime';
import { renderApprovalRecord } from '../approval-record-view.js';
import { type ApprovalRecord, type ApprovalsArgs, parseApprovalsArgs } from '../approvals-args.js';
import { approvalsText } from '../approvals-strings.js';
import { cliActor } from '../cli-actor.js';
import { ExitCode } from '../exit-codes.js';
import { followRun } from '../follow-run.js';
import { approvalsHelp } from '../help.js';
import { loadApplication } from '../load-app.js';
import type { Output } from '../output.js';
import { printable, printableJson } from '../terminal-text.js';
import { table } from '../text-table.js';

type Decide = Extract<ApprovalsArgs, { action: 'approve' | 'reject' }>;

/**
 * `tiny-claw approvals list | show ID | approve ID | reject ID [reason]`: the requests of paused
 * runs, and deciding them. A decision continues the paused run in this process and prints it like
 * `tiny-claw run` does; a refused decision (malformed or unknown id, another session's, already
 * decided, expired, changed since the request) prints why and exits 1 with nothing run. Approving
 * a call whose tool this process cannot run is refused before anything is claimed, naming the
 * setting to change (exit 78); the request stays pending.
 *
 * @throws UsageError for bad subcommands or flags (the caller prints it, exit 2).
 *
 * @example
 * process.exitCode = await approvalsCommand(['approve', 'ap_0bX3kR9d2LqvYw7aP1sT4g'], processOutput());
 */
export async function approvalsCommand(argv: string[], out: Output): Promise<number> {
  const args = parseApprovalsArgs(argv);
  if (args.action === 'help') {
    out.stdout(approvalsHelp);
    return ExitCode.ok;
  }
  const app = await loadApplication({
    workdir: 'workdir' in args ? args.workdir : undefined,
    withoutModel: args.action === 'list' || args.action === 'show',
    command: 'approvals',
  });
  try {
    switch (args.action) {
      case 'list':
        return await list(app, args, out);
      case 'show':
        return await show(app, args.id, args.json, out);
      default:
        return await decide(app, args, out);
    }
  } finally {
    await app.close();
  }
}

async function list(
  app: Application,
  args: Extract<ApprovalsArgs, { action: 'list' }>,
  out: Output,
): Promise<number> {
  const records = await app.approvals({
    ...(args.status === undefined ? {} : { status: args.status }),
    ...(args.session === undefined ? {} : { session: args.session }),
  });
  if (args.json) {
    out.stdout(`${printableJson(records)}\n`);
    return ExitCode.ok;
  }
  if (records.length === 0) {
    const filter = [
      args.status === undefined ? '' : ` ${args.status}`,
      args.session === undefined ? '' : ` of session ${JSON.stringify(args.session)}`,
    ];
    // An empty list is an answer, not a failure; the note goes where people look for notes.
    out.stderr(`${approvalsText.none(app.settings.stateDir, filter.join(''))}\n`);
    return ExitCode.ok;
  }
  const now = Date.now();
  out.stdout(table([[...approvalsText.listHeader], ...records.map((r) => listRow(r, now))]));
  return ExitCode.ok;
}

function listRow(record: ApprovalRecord, now: number): string[] {
  const expired = record.status === 'pending' && Date.parse(record.expiresAt) <= now;
  const reason = record.riskReasons[0] ?? approvalsText.noReason;
  return [
    record.id,
    `${record.status}${expired ? approvalsText.expiredSuffix : ''}`,
    record.toolName,
    record.createdAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    // A CLI session is named on the command line by its name; others only by their key.
    record.sessionSource === 'cli' ? record.sessionExternalId : record.sessionKey,
    reason.length > 72 ? `${reason.slice(0, 71)}…` : reason,
  ].map((cell) => printable(cell));
}

async function show(app: Application, id: string, json: boolean, out: Output): Promise<number> {
  const record = await app.approval(id);
  if (!record) {
    out.stderr(`tiny-claw: ${approvalsText.notFound(id, app.settings.stateDir)}\n`);
    return ExitCode.runtime;
  }
  if (json) {
    out.stdout(`${printableJson(record)}\n`);
    return ExitCode.ok;
  }
  out.stdout(
    await renderApprovalRecord(record, {
      color: out.color && out.interactive,
      describeShellCommand: (command) => app.describeShellCommand(command),
    }),
  );
  return ExitCode.ok;
}

async function decide(app: Application, args: Decide, out: Output): Promise<number> {
  if (app.approvalProvider === 'off') throw new ConfigurationError(approvalsText.approvalsOff);
  const actor = cliActor();
  const health = app.health();
  out.stderr(
    `tiny-claw · provider ${health.provider.name} (${health.provider.reason}) · ${approvalsText.deciding(args.action, args.id, actor)}\n`,
  );
  return followRun(
    (onEvent, signal) =>
      app.resumeApproval(args.id, {
        decision: args.action,
        actor,
        onEvent,
        signal,
        ...(args.action === 'reject' && args.reason !== undefined ? { reason: args.reason } : {}),
        ...(args.session === undefined ? {} : { session: args.session }),
      }),
    { app, out, json: args.json, scope: { session: args.session, workdir: args.workdir }, actor },
  );
}
