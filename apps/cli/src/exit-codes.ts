import type { ErrorCode, StopDetail, StopReason } from '@tiny-claw/core';

/** Process exit codes of the CLI (documented in `--help`). */
export const ExitCode = {
  ok: 0,
  runtime: 1,
  usage: 2,
  /** The run stopped without a final answer: out of steps, or a tool call it may not make. */
  noFinalAnswer: 3,
  /** The run paused: a tool call waits for a person's decision (`approval_required`). */
  approvalRequired: 4,
  provider: 70,
  tool: 71,
  configuration: 78,
  /** SIGINT (Ctrl-C), 128 + 2 as shells report it. */
  interrupted: 130,
  /** SIGTERM or SIGHUP, 128 + 15 as shells report SIGTERM. */
  terminated: 143,
} as const;

/** The signals that cancel a run. */
export type CancelSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/**
 * Exit code for a run that returned. Only a final answer is success: a script must not mistake a
 * run that ran out of steps, was blocked or paused for one that finished (the stop reason itself
 * is in the output). Every stop reason is mapped here on purpose — a new one does not compile
 * until it is given a code.
 *
 * @example
 * exitCodeForStopReason('final'); // 0
 * exitCodeForStopReason('max_steps_exhausted'); // 3
 * exitCodeForStopReason('approval_required'); // 4
 */
export function exitCodeForStopReason(reason: StopReason, detail?: StopDetail): number {
  switch (reason) {
    case 'final':
      return ExitCode.ok;
    case 'max_steps_exhausted':
    case 'tool_policy_blocked':
      return ExitCode.noFinalAnswer;
    case 'approval_required':
      return ExitCode.approvalRequired;
    case 'approval_resume_failed':
      return ExitCode.runtime;
    case 'provider_error':
      // A model that kept answering with nothing did not fail a call: the run just has no answer.
      return detail === 'empty_turns' ? ExitCode.noFinalAnswer : ExitCode.provider;
    case 'cancelled':
      return ExitCode.interrupted;
    default:
      return unmapped(reason);
  }
}

/**
 * Exit code for a run that returned after a signal asked it to stop: a cancelled run reports
 * the signal (130 for SIGINT, 143 for SIGTERM and SIGHUP); a run that finished anyway — the
 * signal came as the last step ended — reports how it finished.
 *
 * @example
 * exitCodeForRun('cancelled', 'SIGTERM'); // 143
 * exitCodeForRun('final', 'SIGTERM'); // 0
 */
export function exitCodeForRun(
  reason: StopReason,
  signal: CancelSignal | undefined,
  detail?: StopDetail,
): number {
  if (reason === 'cancelled' && signal !== undefined) return exitCodeForSignal(signal);
  return exitCodeForStopReason(reason, detail);
}

/**
 * Exit code for quitting because of a signal, as shells report a process killed by it.
 *
 * @example
 * exitCodeForSignal('SIGHUP'); // 143
 */
export function exitCodeForSignal(signal: CancelSignal): number {
  return signal === 'SIGINT' ? ExitCode.interrupted : ExitCode.terminated;
}

/**
 * Exit code for an error that ended a command, from the kind of problem it reports.
 *
 * @example
 * exitCodeForError('configuration'); // 78
 */
export function exitCodeForError(code: ErrorCode): number {
  switch (code) {
    case 'configuration':
      return ExitCode.configuration;
    case 'provider':
      return ExitCode.provider;
    case 'tool':
      return ExitCode.tool;
    case 'cancelled':
      return ExitCode.interrupted;
    case 'input':
      return ExitCode.usage;
    case 'runtime':
    case 'state':
    case 'approval':
      return ExitCode.runtime;
  }
}

// A stop reason from a newer core than this CLI was built against: not a final answer.
function unmapped(reason: never): number {
  void reason;
  return ExitCode.noFinalAnswer;
}
