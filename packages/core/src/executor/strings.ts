import type { FailureKind } from '../tool.js';

/**
 * User- and model-facing text of the executor, kept in one place for a future locale.
 *
 * @example
 * executorText.unexpectedFailure('lookup', 'EIO'); // 'tool lookup failed unexpectedly: EIO'
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

/** Summary, generic next step and what to avoid, for one failure kind. */
interface KindText {
  summary: string;
  next: string;
  avoid: string;
}

/**
 * Model-facing guidance per failure kind: a one-line summary, the next step when the tool gave no
 * advice of its own, and what to avoid. None of it names a tool: only the model's visible list and
 * the tools' own advice do.
 *
 * @example
 * guidanceText.unknown_tool.next(['lookup', 'search']); // 'Use only the tools you can see: lookup, search.'
 */
export const guidanceText: {
  unknown_tool: {
    summary: (tool: string) => string;
    next: (visible: readonly string[]) => string;
    avoid: string;
  };
} & Record<Exclude<FailureKind, 'unknown_tool'>, KindText> = {
  unknown_tool: {
    summary: (tool: string): string => `the tool "${tool}" is not available on this step`,
    next: (visible: readonly string[]): string =>
      visible.length > 0
        ? `Use only the tools you can see: ${visible.join(', ')}.`
        : 'No tools are available right now; answer the user directly without calling tools.',
    avoid: 'Do not call tools that are not in that list and do not invent tool names.',
  },
  invalid_arguments: {
    summary: 'the arguments do not fit the tool',
    next: "Fix the arguments to match the tool's schema (required fields, types, allowed values); the error above names the field at fault.",
    avoid: 'Do not invent fields and do not resend the same arguments.',
  },
  denied: {
    summary: 'the call was refused by policy',
    next: 'Choose another approach that uses only the tools you can see, or tell the user what you would need.',
    avoid: 'Do not try to get around the policy by other means.',
  },
  outside_workdir: {
    summary: 'the path is outside the workspace',
    next: 'Use a path relative to the workdir that stays inside it (no `..` that climbs out, no absolute path elsewhere, no symlink that points out).',
    avoid:
      'Do not try to get around the workspace boundary with other spellings, symlinks or shell commands.',
  },
  protected_path: {
    summary: 'the path is protected and tools may not write it',
    next: 'Write somewhere else in the workspace, or ask the user to make this change.',
    avoid:
      "Do not try to write into version-control internals or the agent's state directory by another route.",
  },
  not_found: {
    summary: 'the target does not exist',
    next: 'Check the name against what you have already seen listed or mentioned, then retry with one that exists.',
    avoid: 'Do not keep guessing names.',
  },
  stale_read: {
    summary: 'the file must be read (again) before it can be changed',
    next: 'Get the current content of the file first, then redo the change based on it.',
    avoid: 'Do not retry the change from memory of an older version of the file.',
  },
  no_match: {
    summary: 'the text to replace was not found',
    next: 'Look at the current content again and copy the text to replace exactly, or use a shorter fragment that is certainly unchanged.',
    avoid: 'Do not resend the same text and do not rebuild the content from memory.',
  },
  ambiguous_match: {
    summary: 'the text to replace matches more than one place',
    next: 'Include more surrounding lines so the text matches exactly one place, or ask for every occurrence to be replaced if that is what you want.',
    avoid: 'Do not resend the same text.',
  },
  unsupported_target: {
    summary: 'the target is not something this tool can handle',
    next: 'Read the error above: work on another target or with another tool, or tell the user.',
    avoid: 'Do not retry the same call on this target.',
  },
  timeout: {
    summary: 'the call timed out',
    next: 'Narrow what the call does (fewer files, a filter, a limit), make sure it never waits for input, or allow more time if the tool takes a timeout.',
    avoid: 'Do not rerun the same call unchanged.',
  },
  command_failed: {
    summary: 'the command exited with an error',
    next: 'Read the error output above and fix the cause (command, arguments, working directory, missing dependency) before running it again.',
    avoid: 'Do not rerun the same command without changing anything.',
  },
  cancelled: {
    summary: 'the call was cancelled',
    next: 'The run is ending; do not retry.',
    avoid: 'Do not repeat the call.',
  },
  execution_error: {
    summary: 'the tool ran into an error',
    next: 'Read the error above, then change the arguments or try a different approach. If the cause is outside your control, tell the user.',
    avoid: 'Do not repeat the identical call.',
  },
};

/**
 * Model-facing text of the repeated-failure breaker.
 *
 * @example
 * loopBreakerText.message('lookup', 3);
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
