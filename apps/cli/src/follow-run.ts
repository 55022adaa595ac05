import { describeRule, type PermissionRule } from '@tiny-claw/approval';
import { describeRunError, type RunEventListener, type RunResult } from '@tiny-claw/core';
import { type Application, userRulesFile } from '@tiny-claw/runtime';
import { askDecision, type PromptDecision } from './approval-prompt.js';
import { renderApprovalRequest } from './approval-request-view.js';
import type { ApprovalRecord } from './approvals-args.js';
import { approvalsText, scopeFlags } from './approvals-strings.js';
import { cancellable } from './cancellable.js';
import { exitCodeForRun } from './exit-codes.js';
import type { Output } from './output.js';
import { runSummary } from './run-summary.js';
import { createTerminalOutput, type TerminalOutput } from './terminal-output.js';
import { printable, printableJson } from './terminal-text.js';

/** What {@link followRun} needs besides the run itself. */
export interface FollowRunOptions {
  app: Application;
  out: Output;
  json: boolean;
  /**
   * The `--session` / `--workdir` the command was given: a decision made here uses the same
   * session, and the commands printed for deciding later repeat them.
   */
  scope: { session: string | undefined; workdir: string | undefined };
  /** Who decides in this terminal (`cli:<os user>`). */
  actor: string;
}

/**
 * Drive a run to its end in the terminal and return the exit code: progress on stderr, and each
 * time the run pauses for an approval — the request and the run state are already saved then — in
 * a terminal (and without `--json`) the request is shown and decided inline through the same
 * `resumeApproval` a later `tiny-claw approvals approve` uses, as long as the run keeps pausing.
 * Without a terminal, or with no answer, the run ends paused: the approval id, the tool, the
 * reasons and the exact commands to decide it go to stderr, exit 4.
 *
 * @example
 * return followRun((onEvent, signal) => app.run({ prompt, onEvent, signal }), { app, out, json, scope, actor });
 */
export async function followRun(
  start: (onEvent: RunEventListener, signal: AbortSignal) => Promise<RunResult>,
  options: FollowRunOptions,
): Promise<number> {
  const { app, out } = options;
  const newTerminal = () =>
    createTerminalOutput({
      stdout: out.stdout,
      stderr: out.stderr,
      color: out.color,
      streamToStdout: out.interactive && !options.json,
    });
  let terminal = newTerminal();
  let { value: result, signal: received } = await cancellable(out, (signal) =>
    start(terminal.onEvent, signal),
  );
  const ask = options.json ? undefined : out.ask;
  // After a signal nobody is asked anything: the person (or the supervisor) wants the process gone.
  while (
    ask &&
    received === undefined &&
    result.stopReason === 'approval_required' &&
    result.approvalId !== undefined
  ) {
    const approvalId = result.approvalId;
    const record = await app.approval(approvalId);
    if (record?.status !== 'pending') break;
    out.stderr(
      await renderApprovalRequest(record, {
        color: out.color,
        describeShellCommand: (command) => app.describeShellCommand(command),
      }),
    );
    const always = await alwaysProposals(app, record);
    if (always.session || always.project) out.stderr(alwaysLines(app, always));
    const answer = await askDecision(ask, out.stderr, {
      session: always.session !== null,
      project: always.project !== null,
    });
    if (!answer) {
      out.stderr(`${approvalsText.leftPending}\n`);
      break;
    }
    out.stderr(`${approvalsText.deciding(answer.decision, approvalId, options.actor)}\n`);
    terminal = newTerminal();
    const show = terminal.onEvent;
    // An "always" answer is kept once the decision is claimed (the resumed event), before the run
    // goes on, so the next identical call is judged with it; a refused decision keeps nothing.
    let kept: Promise<void> | undefined;
    const onEvent: RunEventListener = (event) => {
      if (event.type === 'approval.resumed' && event.approvalId === approvalId)
        kept = keepAlways(app, record, answer, always, out);
      show(event);
    };
    // The request itself is decided like any other approval; the listener keeps "always".
    const decision = answer.decision === 'approve' ? { decision: 'approve' as const } : answer;
    ({ value: result, signal: received } = await cancellable(out, (signal) =>
      app.resumeApproval(approvalId, {
        ...decision,
        actor: options.actor,
        onEvent,
        signal,
        ...(options.scope.session === undefined ? {} : { session: options.scope.session }),
      }),
    ));
    await kept;
  }
  await printRunResult(result, terminal, options);
  return exitCodeForRun(result.stopReason, received, result.stopDetail);
}

type Proposed = readonly PermissionRule[] | null;

/** The rules each "always" answer would keep; null when that answer cannot stop the next ask. */
async function alwaysProposals(
  app: Application,
  record: ApprovalRecord,
): Promise<{ session: Proposed; project: Proposed }> {
  const [session, project] = await Promise.all([
    app.proposeAlways(record, 'session').catch(() => ({ rules: null })),
    app.proposeAlways(record, 'project').catch(() => ({ rules: null })),
  ]);
  return { session: session.rules, project: project.rules };
}

/** What each "always" answer keeps, shown before the person answers. */
function alwaysLines(app: Application, always: { session: Proposed; project: Proposed }): string {
  const shown = (rules: readonly PermissionRule[]) =>
    rules.map((rule) => printable(describeRule(rule)));
  const lines: string[] = [approvalsText.alwaysHeader];
  if (always.session) lines.push(approvalsText.alwaysSession(shown(always.session)));
  if (always.project)
    lines.push(approvalsText.alwaysProject(shown(always.project), userRulesFile(app.settings)));
  return `${lines.join('\n')}\n`;
}

/**
 * Keep an "always" answer's rules. A rules file that cannot take the rule is said; the call is
 * approved all the same (the person did approve it), and the rule still counts in this process.
 */
async function keepAlways(
  app: Application,
  record: ApprovalRecord,
  answer: PromptDecision,
  always: { session: Proposed; project: Proposed },
  out: Output,
): Promise<void> {
  if (answer.decision !== 'approve' || answer.always === undefined) return;
  const rules = always[answer.always];
  if (!rules) return;
  try {
    const kept = await app.keepAlways(record, answer.always, rules);
    const shown = kept.added.map((rule) => printable(describeRule(rule)));
    out.stderr(
      `${kept.file === null ? approvalsText.keptForSession(shown) : approvalsText.keptInFile(shown, kept.file)}\n`,
    );
  } catch (error) {
    out.stderr(`tiny-claw: ${approvalsText.notKept(printable((error as Error).message))}\n`);
  }
}

async function printRunResult(
  result: RunResult,
  terminal: TerminalOutput,
  options: FollowRunOptions,
): Promise<void> {
  const { out } = options;
  const paused = result.stopReason === 'approval_required';
  if (options.json) {
    // A paused run's state holds the whole conversation: it stays in the state dir, not on stdout.
    const { state: _state, ...printed } = result;
    out.stdout(`${printableJson(printed)}\n`);
  } else if (result.stopReason === 'provider_error') {
    // What failed, never the model's text; a result from before `error` carried it in the text.
    const failure = result.error ? describeRunError(result.error) : result.text;
    out.stderr(`tiny-claw: ${printable(failure, { multiline: true })}\n`);
  } else if (!paused && (terminal.lastStreamedText() !== result.text || result.text === '')) {
    // A paused run has no answer: its text is the note the model got, so stdout stays empty.
    // On a terminal the answer is made safe to show; piped, it stays byte for byte what the
    // model wrote, for the script that reads it.
    const text = out.interactive ? printable(result.text, { multiline: true }) : result.text;
    out.stdout(text.endsWith('\n') ? text : `${text}\n`);
  }
  if (paused && result.approvalId !== undefined) {
    out.stderr(await pausedMessage(result, result.approvalId, options));
  }
  out.stderr(`${runSummary(result)}\n`);
}

/** How to decide a request later, from any process: the exact commands, scoped like this one. */
async function pausedMessage(
  result: RunResult,
  approvalId: string,
  options: FollowRunOptions,
): Promise<string> {
  let record: ApprovalRecord | undefined;
  try {
    record = await options.app.approval(approvalId);
  } catch {
    // An unreadable record is reported when someone decides; the commands are still right.
  }
  const flags = scopeFlags({
    session: options.scope.session,
    workdir: options.scope.workdir === undefined ? undefined : result.workdir,
  });
  const reasons = record?.riskReasons.length ? record.riskReasons : [approvalsText.noReason];
  const lines = [
    approvalsText.pausedHeader(printable(record?.toolName ?? '?'), approvalId),
    ...(record
      ? [
          `  ${approvalsText.pausedReasons} ${reasons.map((r) => printable(r)).join('; ')}`,
          `  ${approvalsText.pausedExpires(record.expiresAt)}`,
        ]
      : []),
    `  ${approvalsText.pausedApprove(`tiny-claw approvals approve ${approvalId}${flags}`)}`,
    `  ${approvalsText.pausedReject(`tiny-claw approvals reject ${approvalId} "<reason>"${flags}`)}`,
    `  ${approvalsText.pausedHint}`,
  ];
  return `${lines.join('\n')}\n`;
}
