/**
 * User- and model-facing text of the executor, kept in one place for a future locale.
 *
 * @example
 * executorText.unexpectedFailure('read', 'EIO'); // 'tool read failed unexpectedly: EIO'
 */
export const executorText = {
  cancelled: 'tool call cancelled: the run was cancelled before this call finished',
  approvalRequired: 'this tool call requires human approval',
  unexpectedFailure: (tool: string, message: string): string =>
    `tool ${tool} failed unexpectedly: ${message}`,
  guidanceLog: (fields: {
    tool: string;
    errorType: string;
    attempt: number;
    retryable: boolean;
    suggestedTool: string | undefined;
  }): string =>
    `tool failure translated into guidance tool=${fields.tool} error_type=${fields.errorType} ` +
    `attempt=${fields.attempt} retryable=${fields.retryable} suggested_tool=${fields.suggestedTool ?? 'none'}`,
  blockedLog: (tool: string, attempt: number): string =>
    `repeated failing call not executed tool=${tool} attempt=${attempt}`,
};

/**
 * Labels of the failure-guidance observation the model reads after a failed call.
 *
 * @example
 * `${guidanceLabels.failed} the path is outside the workspace`;
 */
export const guidanceLabels = {
  failed: 'Tool failed:',
  error: 'Error:',
  emptyError: '(empty error)',
  next: 'Next step:',
  avoid: 'Avoid:',
  attempt: 'Attempt:',
  repeat: 'Repeat warning:',
  repeatBody:
    'This exact call has failed before. Change the arguments or the strategy; do not send it again unchanged.',
};

/** Quote a shell word only when it needs it, so simple paths stay readable in advice. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Model-facing advice per failure category: a one-line summary, the next step and what to avoid.
 *
 * @example
 * guidanceText.unknownTool.next(['read', 'bash']); // 'Use only the tools you can see: read, bash.'
 */
export const guidanceText = {
  unknownTool: {
    summary: (tool: string): string => `the tool "${tool}" is not available on this step`,
    next: (visible: readonly string[]): string =>
      visible.length > 0
        ? `Use only the tools you can see: ${visible.join(', ')}.`
        : 'No tools are available right now; answer the user directly without calling tools.',
    avoid: 'Do not call tools that are not in that list and do not invent tool names.',
  },
  pathOutsideRoot: {
    summary: 'the path is outside the workspace',
    next: 'Use a path relative to the workdir that stays inside it (no `..` that climbs out, no absolute path elsewhere, no symlink that points out).',
    avoid:
      'Do not try to get around the workspace boundary with other spellings, symlinks or shell commands.',
  },
  protectedPath: {
    summary: 'the path is protected and tools may not write it',
    next: (bashVisible: boolean): string =>
      bashVisible
        ? 'Write somewhere else in the workspace. To change git state, run git commands with bash instead of editing .git.'
        : 'Write somewhere else in the workspace, or ask the user to make this change.',
    avoid: 'Do not try to write into .git or the tiny-claw state directory by another route.',
  },
  fileNotRead: {
    summary: 'the file must be read (again) before it can be changed',
    next: (readVisible: boolean, file: string): string =>
      readVisible
        ? `Call read on ${file} to get its current content, then redo the change based on that output.`
        : 'No tool for reading files is available on this step, so this file cannot be changed safely; tell the user what change you intended.',
    avoid: 'Do not retry the change from memory of an older version of the file.',
  },
  readPathNotFound: {
    summary: 'the file to read does not exist',
    nextWithBash: (parent: string): string =>
      `Check what exists first: call bash with \`ls ${shellWord(parent)}\`, then read a path you have seen listed.`,
    nextWithoutBash:
      'No tool for listing directories is available on this step. Read a path you have already seen confirmed (in an earlier result or in the user message), or ask the user for the right path.',
    avoid: 'Do not keep guessing file names.',
  },
  editOldTextNotFound: {
    summary: 'old_text was not found in the file',
    next: (readVisible: boolean, file: string): string =>
      readVisible
        ? `Call read on ${file} to see its current content, then copy old_text exactly from it, without the \`N: \` line-number prefixes.`
        : 'Copy old_text exactly from the file content you last saw, without the `N: ` line-number prefixes, or use a shorter fragment that is certainly unchanged.',
    avoid: 'Do not resend the same old_text and do not rebuild the file content from memory.',
  },
  editMultipleMatches: {
    summary: 'old_text matches more than one place in the file',
    next: (readVisible: boolean): string =>
      `${readVisible ? 'Read the file, then make' : 'Make'} old_text longer with surrounding lines so it matches exactly one place, or set replace_all to true if every occurrence should change.`,
    avoid: 'Do not resend the same old_text.',
  },
  bashTimeoutService: {
    summary: 'the command timed out; it looks like a long-running service',
    next: (command: string): string =>
      `Start it in the background with its output redirected to a log file, for example \`${command.trim()} > service.log 2>&1 &\`, then probe it or read the log with a short command.`,
    avoid: 'Do not run servers, watchers or `tail -f` in the foreground; they never exit.',
  },
  bashTimeoutTests: {
    summary: 'the test or build command timed out',
    next: 'Narrow the scope: run one test file or one test name, or build one package; raise timeout_seconds (at most 600) only if the narrowed command still needs it.',
    avoid: 'Do not move tests or builds into the background; you need their result.',
  },
  bashTimeoutGeneric: {
    summary: 'the command timed out',
    next: 'Narrow what the command does (fewer files, a filter, a limit), make sure it never waits for input, or raise timeout_seconds (at most 600).',
    avoid: 'Do not rerun the same command unchanged.',
  },
  bashCommandFailed: {
    summary: 'the command exited with an error',
    next: 'Read the error output above and fix the cause (command, arguments, working directory, missing dependency) before running it again.',
    truncated:
      ' The output was truncated: rerun a narrower command, or pipe it through `tail -n 50` or `grep`, to see the part that matters.',
    avoid: 'Do not rerun the same command without changing anything.',
  },
  invalidArguments: {
    summary: 'the arguments do not fit the tool',
    next: "Fix the arguments to match the tool's schema (required fields, types, allowed values); the error above names the field at fault.",
    avoid: 'Do not invent fields and do not resend the same arguments.',
  },
  executionError: {
    summary: 'the tool ran into an error',
    next: 'Read the error above, then change the arguments or try a different approach. If the cause is outside your control, tell the user.',
    avoid: 'Do not repeat the identical call.',
  },
};

/**
 * Model-facing text of the repeated-failure breaker.
 *
 * @example
 * loopBreakerText.message('edit', 3);
 */
export const loopBreakerText = {
  blockedSummary: (tool: string, previous: number): string =>
    `this exact ${tool} call already failed ${previous} times in a row, so it was not executed`,
  blockedError: (previous: number): string =>
    `not executed: the same tool with the same arguments failed ${previous} times in a row`,
  blockedNext:
    'Stop retrying this call. Change strategy completely, or end the task and tell the user what help you need.',
  blockedAvoid: (tool: string): string => `Do not call ${tool} with these arguments again.`,
  message: (tool: string, times: number): string =>
    [
      `You seem to be stuck in a loop: you called the '${tool}' tool ${times} times in a row with the same arguments and it failed every time. Stop retrying!`,
      '',
      'Do this instead:',
      '1. Stop guessing parameters.',
      '2. Change your strategy completely: look at the problem from another angle, gather the facts you are missing, or use a different tool.',
      '3. If the tools cannot solve it, end the task and tell the user exactly what human help you need.',
    ].join('\n'),
};
