import type { ToolMetadata, ToolOutput } from '@tiny-claw/core';

/**
 * What a tool says about its own failure: the kind core acts on, and advice in the tool's words.
 * Derived from `ToolOutput` so this package depends only on the output shape core documents.
 *
 * @example
 * const failure: ToolFailure = { kind: 'not_found', advice: 'List the directory first.' };
 */
export type ToolFailure = NonNullable<ToolOutput['failure']>;

/**
 * One of core's failure kinds (`not_found`, `stale_read`, `timeout`, …).
 *
 * @example
 * const kind: FailureKind = 'unsupported_target';
 */
export type FailureKind = ToolFailure['kind'];

/**
 * An error observation: the raw text, and the one typed failure core renders advice from — its
 * kind and advice, with the tool's own detailed error type as the failure's `code`. `extra` is the
 * tool's own details (an exit code, the sandbox used), kept as the output's metadata.
 *
 * @example
 * return toolFailure('read path does not exist: a.txt', 'not_found', { kind: 'not_found' });
 * // { content: 'read path does not exist: a.txt', isError: true, failure: { kind: 'not_found', code: 'not_found' } }
 */
export function toolFailure(
  content: string,
  code: string,
  failure: ToolFailure,
  extra: ToolMetadata = {},
): ToolOutput {
  const output: ToolOutput = { content, isError: true, failure: { ...failure, code } };
  if (Object.keys(extra).length > 0) output.metadata = extra;
  return output;
}

/**
 * `fail(text, errorType, extra?)` for one call: the kind and advice come from the call's
 * advisor, so call sites name only the tool's own error type (the failure's code).
 *
 * @example
 * const fail: FailureReporter<'not_found'> = failureReporter(() => ({ kind: 'not_found' }));
 * return fail('no such file', 'not_found');
 */
export type FailureReporter<T extends string> = (
  content: string,
  errorType: T,
  extra?: ToolMetadata,
) => ToolOutput;

/**
 * Bind an advisor (detailed error type → kind and advice) into a {@link FailureReporter}.
 *
 * @example
 * const fail = failureReporter((type: ReadErrorType) => readFailure(type, { path, visibleTools }));
 */
export function failureReporter<T extends string>(
  advise: (errorType: T) => ToolFailure,
): FailureReporter<T> {
  return (content, errorType, extra) => toolFailure(content, errorType, advise(errorType), extra);
}

/**
 * A failure whose advice points at another tool: `suggestedTool` is set only when the model can
 * call that tool on this step, so core never steers it towards a tool it cannot see.
 *
 * @example
 * pointingTo('no_match', 'Call read on a.ts, then copy old_text from it.', 'read', ['read', 'edit']);
 * // { kind: 'no_match', advice: 'Call read on a.ts, …', suggestedTool: 'read' }
 */
export function pointingTo(
  kind: FailureKind,
  advice: string,
  tool: string,
  visibleTools: readonly string[],
): ToolFailure {
  return visibleTools.includes(tool) ? { kind, advice, suggestedTool: tool } : { kind, advice };
}

/**
 * A failure with optional advice (omitted when undefined, so core uses its generic advice).
 *
 * @example
 * failureOf('cancelled'); // { kind: 'cancelled' }
 */
export function failureOf(kind: FailureKind, advice?: string): ToolFailure {
  return advice === undefined ? { kind } : { kind, advice };
}

/**
 * A byte count for people: `12 bytes`, `3.4 KiB`, `20.0 MB`.
 *
 * @example
 * formatSize(2048); // '2.0 KiB'
 */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
