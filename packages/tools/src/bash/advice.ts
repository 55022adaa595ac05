import { pathGuardFailure } from '../path-advice.js';
import type { PathGuardErrorType } from '../path-guard.js';
import type { SandboxBlock } from '../sandbox/sandbox-block.js';
import { failureOf, pointingTo, type ToolFailure } from '../tool-failure.js';
import { commandKind } from './command-kind.js';

/**
 * Every failure code (`failure.code`) the `bash` tool reports.
 *
 * @example
 * const type: BashErrorType = 'bash_timeout';
 */
export type BashErrorType =
  | PathGuardErrorType
  | 'nul_in_command'
  | 'command_too_long'
  | 'not_found'
  | 'not_a_directory'
  | 'bash_timeout'
  | 'bash_command_failed'
  | 'spawn_failed'
  | 'sandbox_failed'
  | 'cancelled'
  | 'execution_error';

/**
 * The call a failure is about.
 *
 * @example
 * const call: BashCall = { command: 'npm test', visibleTools: ['bash'], maxTimeoutSeconds: 600 };
 */
export interface BashCall {
  command: string;
  visibleTools: readonly string[];
  /** The upper bound of `timeout_seconds`, quoted when advising to raise it. */
  maxTimeoutSeconds: number;
  /** Whether stdout or stderr was cut before reaching the model. */
  outputTruncated?: boolean;
  /** What in the sandbox most likely made the command fail, when something did. */
  sandboxBlock?: SandboxBlock;
}

/**
 * The failure kind and advice of one failed `bash` call. A timeout is advised by what the
 * command looks like: a service is started in the background and probed in the same command, a
 * test or build is narrowed, anything else is narrowed or given more time.
 *
 * @example
 * bashFailure('bash_timeout', { command: 'npm run dev', visibleTools: ['bash'], maxTimeoutSeconds: 600 });
 * // { kind: 'timeout', advice: 'It looks like a long-running service, …' }
 */
export function bashFailure(errorType: BashErrorType, call: BashCall): ToolFailure {
  switch (errorType) {
    case 'invalid_path':
    case 'path_outside_root':
    case 'workdir_unavailable':
      return pathGuardFailure(errorType, call.visibleTools);
    case 'protected_path':
      return failureOf('protected_path', bashAdvice.cwdProtected);
    case 'nul_in_command':
      return failureOf('invalid_arguments', bashAdvice.nulInCommand);
    case 'command_too_long':
      return pointingTo(
        'invalid_arguments',
        call.visibleTools.includes('write') ? bashAdvice.tooLongWithWrite : bashAdvice.tooLong,
        'write',
        call.visibleTools,
      );
    case 'not_found':
      return failureOf('not_found', bashAdvice.cwdNotFound);
    case 'not_a_directory':
      return failureOf('unsupported_target', bashAdvice.cwdNotDirectory);
    case 'bash_timeout':
      return failureOf('timeout', timeoutAdvice(call));
    case 'bash_command_failed':
      if (call.sandboxBlock) return failureOf('command_failed', sandboxAdvice(call.sandboxBlock));
      return failureOf(
        'command_failed',
        call.outputTruncated
          ? `${bashAdvice.commandFailed} ${bashAdvice.truncated}`
          : bashAdvice.commandFailed,
      );
    case 'cancelled':
      return failureOf('cancelled');
    case 'spawn_failed':
      return failureOf('execution_error', bashAdvice.spawnFailed);
    case 'sandbox_failed':
      return failureOf('execution_error', bashAdvice.sandboxFailed);
    case 'execution_error':
      return failureOf('execution_error');
  }
}

function sandboxAdvice(block: SandboxBlock): string {
  switch (block) {
    case 'read_only':
      return bashAdvice.sandboxReadOnly;
    case 'hidden_path':
      return bashAdvice.sandboxHidden;
    case 'git_metadata':
      return bashAdvice.sandboxGitMetadata;
    case 'network':
      return bashAdvice.sandboxNetwork;
  }
}

function timeoutAdvice(call: BashCall): string {
  switch (commandKind(call.command)) {
    case 'service':
      return bashAdvice.timeoutService(call.command);
    case 'test_or_build':
      return bashAdvice.timeoutTestOrBuild(call.maxTimeoutSeconds);
    case 'other':
      return bashAdvice.timeoutOther(call.maxTimeoutSeconds);
  }
}

/**
 * Model-facing advice of the `bash` tool, kept in one place for a future locale.
 *
 * @example
 * bashAdvice.timeoutOther(600); // 'Narrow what the command does …'
 */
export const bashAdvice = {
  timeoutService: (command: string): string =>
    'It looks like a long-running service, which never exits on its own. Start it in the background with its output redirected to a log and probe it in the same command, because background processes are stopped when the command ends: for example ' +
    `\`${command.trim()} > service.log 2>&1 & sleep 3; curl -sS http://127.0.0.1:<port>/; tail -n 20 service.log\`. ` +
    'Do not run servers, watchers or `tail -f` in the foreground.',
  timeoutTestOrBuild: (max: number): string =>
    `Narrow the scope: run one test file or one test name, or build one package; raise timeout_seconds (at most ${max}) only if the narrowed command still needs it. Do not move tests or builds into the background; you need their result.`,
  timeoutOther: (max: number): string =>
    `Narrow what the command does (fewer files, a filter, a limit), make sure it never waits for input, or raise timeout_seconds (at most ${max}). Do not rerun the same command unchanged.`,
  commandFailed:
    'Read the error output and fix the cause (command, arguments, working directory, missing dependency) before running it again. Do not rerun the same command without changing anything.',
  truncated:
    'The output was truncated: rerun a narrower command, or pipe it through `tail -n 50` or `grep`, to see the part that matters.',
  cwdProtected:
    'Run the command from another directory of the workspace; the agent’s own state directory is off limits to tools.',
  nulInCommand:
    "Remove the NUL byte from the command; write `printf '\\0'` inside it if the output needs one.",
  tooLongWithWrite:
    'Write the script to a file with write, then run that file with bash (`bash script.sh`).',
  tooLong: 'Split the work into several shorter commands.',
  cwdNotFound:
    'Use a cwd relative to the workdir that exists; run `ls` with cwd "." to see what is there.',
  cwdNotDirectory: 'Pass the directory that contains it as cwd, and name the file in the command.',
  spawnFailed:
    'bash itself could not be started, which no other command can fix; tell the user what failed.',
  sandboxFailed:
    'The sandbox that bash commands run in could not be set up, which no command can fix; tell the user what failed. They can fix bubblewrap, or run commands without a sandbox with TINY_CLAW_SANDBOX=off.',
  sandboxReadOnly:
    'The command wrote where the sandbox does not allow it: only the workdir and /tmp (private, emptied after each command) are writable, and git’s configuration and hooks in the workdir are read-only. Write inside the workdir instead (for example a cache or prefix directory there). If the task truly needs to write elsewhere, stop and tell the user it needs TINY_CLAW_SANDBOX=off; do not look for a way around the sandbox.',
  sandboxHidden:
    'That path is hidden by the sandbox (credentials such as ~/.ssh and ~/.aws, and the agent’s own state, appear empty or unreadable). Do not try to reach it another way. If the task truly needs it, stop and tell the user it needs TINY_CLAW_SANDBOX=off.',
  sandboxGitMetadata:
    'The sandbox keeps git’s metadata out of reach of commands: the workdir’s .git cannot be moved or replaced, git’s configuration and hooks are read-only, and no repository can be created at the workdir’s root, because git would run what they name outside the sandbox. git add, commit, checkout, switch, merge, stash and tag work; git config, git init here, git worktree add, git submodule add and installing hooks do not. Do not look for a way around it: if the task needs such a change, stop and ask the user to make it (or to use TINY_CLAW_SANDBOX=off).',
  sandboxNetwork:
    'The sandbox has no network access, so downloads, name lookups and connections (even to other programs on this machine) fail. Do not retry or look for a way around it: work offline, or stop and tell the user the task needs TINY_CLAW_SANDBOX_NETWORK=on.',
} as const;
