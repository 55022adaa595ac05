import type { ErrorCode, StopReason } from '@tiny-claw/core';

/** Process exit codes of the CLI (documented in `--help`). */
export const ExitCode = {
  ok: 0,
  runtime: 1,
  usage: 2,
  /** The run paused: a tool call waits for a person's decision (`approval_required`). */
  approvalRequired: 4,
  provider: 70,
  tool: 71,
  configuration: 78,
  interrupted: 130,
} as const;

/**
 * Exit code for a run that returned: the run did its job unless the provider failed, the user
 * cancelled it, or it paused waiting for an approval — a script must not mistake a paused run for
 * a finished one (the stop reason itself is in the output).
 *
 * @example
 * exitCodeForStopReason('provider_error'); // 70
 * exitCodeForStopReason('approval_required'); // 4
 */
export function exitCodeForStopReason(reason: StopReason): number {
  switch (reason) {
    case 'provider_error':
      return ExitCode.provider;
    case 'cancelled':
      return ExitCode.interrupted;
    case 'approval_resume_failed':
      return ExitCode.runtime;
    case 'approval_required':
      return ExitCode.approvalRequired;
    default:
      return ExitCode.ok;
  }
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
    case 'runtime':
    case 'state':
    case 'approval':
      return ExitCode.runtime;
  }
}
