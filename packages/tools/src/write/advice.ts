import { pathGuardFailure } from '../path-advice.js';
import type { PathGuardErrorType } from '../path-guard.js';
import { shellWord } from '../shell-word.js';
import { failureOf, pointingTo, type ToolFailure } from '../tool-failure.js';

/**
 * Every failure code (`failure.code`) the `write` tool reports.
 *
 * @example
 * const type: WriteErrorType = 'file_not_read';
 */
export type WriteErrorType =
  | PathGuardErrorType
  | 'content_too_large'
  | 'file_too_large'
  | 'is_directory'
  | 'not_regular_file'
  | 'path_changed'
  | 'file_not_read'
  | 'binary_file'
  | 'file_too_large_to_read'
  | 'file_modified_since_read'
  | 'cancelled'
  | 'execution_error';

/** The call a failure is about: the path as the model wrote it and the tools it can call now. */
interface WriteCall {
  path: string;
  visibleTools: readonly string[];
}

/**
 * The failure kind and advice of one `write` refusal. A stale or unread file points to `read`
 * when the model can call it, and says what else to do when it cannot; an existing file that
 * `read` refuses (binary, too large) gets advice that never loops back to reading it.
 *
 * @example
 * writeFailure('file_not_read', { path: 'a.ts', visibleTools: ['read', 'write'] });
 * // { kind: 'stale_read', advice: 'Call read on a.ts first, …', suggestedTool: 'read' }
 */
export function writeFailure(errorType: WriteErrorType, call: WriteCall): ToolFailure {
  const { visibleTools } = call;
  const can = (tool: string) => visibleTools.includes(tool);
  switch (errorType) {
    case 'invalid_path':
    case 'path_outside_root':
    case 'protected_path':
    case 'workdir_unavailable':
      return pathGuardFailure(errorType, visibleTools);
    case 'content_too_large':
      return pointingTo(
        'invalid_arguments',
        can('bash') ? writeAdvice.contentTooLargeWithBash : writeAdvice.contentTooLarge,
        'bash',
        visibleTools,
      );
    case 'file_too_large':
      return pointingTo(
        'unsupported_target',
        can('bash') ? writeAdvice.appendTooLargeWithBash : writeAdvice.appendTooLarge,
        'bash',
        visibleTools,
      );
    case 'is_directory':
      return failureOf('unsupported_target', writeAdvice.isDirectory);
    case 'not_regular_file':
      return failureOf('unsupported_target', writeAdvice.notRegular);
    case 'path_changed':
      return failureOf('execution_error', writeAdvice.pathChanged);
    case 'file_not_read':
      return pointingTo(
        'stale_read',
        can('read') ? writeAdvice.notRead(call.path, can('edit')) : writeAdvice.notReadNoRead,
        'read',
        visibleTools,
      );
    case 'binary_file':
    case 'file_too_large_to_read':
      return pointingTo(
        'unsupported_target',
        writeAdvice.unreadable(errorType === 'binary_file' ? 'binary' : 'too_large', call.path, {
          read: can('read'),
          bash: can('bash'),
        }),
        'bash',
        visibleTools,
      );
    case 'file_modified_since_read':
      return pointingTo(
        'stale_read',
        can('read') ? writeAdvice.modified(call.path) : writeAdvice.modifiedNoRead,
        'read',
        visibleTools,
      );
    case 'cancelled':
      return failureOf('cancelled');
    case 'execution_error':
      return failureOf('execution_error', writeAdvice.ioError);
  }
}

/**
 * Model-facing advice of the `write` tool, kept in one place for a future locale.
 *
 * @example
 * writeAdvice.modified('a.ts'); // 'Call read on a.ts again to see its current content, …'
 */
export const writeAdvice = {
  contentTooLargeWithBash:
    'Split the content into several smaller files, or generate the large file with a script run through bash.',
  contentTooLarge: 'Split the content into several smaller files.',
  appendTooLargeWithBash:
    "Append with bash instead (for example `cat >> file <<'EOF'`), which has no size limit.",
  appendTooLarge:
    'Put the addition in a new file instead, or tell the user the file is too large to extend here.',
  isDirectory:
    'Give the path of a file (inside that directory, or a new file name), not a directory.',
  notRegular:
    'write only replaces regular files, never pipes, sockets or devices; choose another path.',
  pathChanged:
    'Something replaced the file or its directory while it was being written; nothing was written. Try once more; if it fails the same way, tell the user another process keeps changing it.',
  notRead: (file: string, editVisible: boolean): string =>
    `Call read on ${file} first, then write again based on what you saw${editVisible ? '; to change only part of it, use edit after reading' : ''}. Do not rewrite it from memory.`,
  notReadNoRead:
    'No tool for reading files is available on this step, so an existing file cannot be replaced safely. Write to a new path, or tell the user what change you intended.',
  unreadable: (
    why: 'binary' | 'too_large',
    file: string,
    visible: { read: boolean; bash: boolean },
  ): string => {
    const what = why === 'binary' ? 'binary files' : 'files this large';
    const look =
      why === 'binary'
        ? `\`file ${shellWord(file)}\`, \`xxd ${shellWord(file)} | head\``
        : `\`head\`, \`tail\`, \`grep -n\` on ${shellWord(file)}`;
    return [
      visible.read
        ? `read refuses ${what} every time, so do not call read on this one; without that read, write will not replace it.`
        : `write replaces an existing file only after it was read, and ${what} cannot be read, so write will not replace it.`,
      visible.bash
        ? `Look at what it holds with bash (${look}). If it really must be replaced as a whole, do that deliberately with bash (for example move it aside with \`mv\`, then write the new file), once you know nothing in it is still needed.`
        : 'Do not retry; write the new content to a new path instead, or tell the user the file needs replacing.',
    ].join(' ');
  },
  modified: (file: string): string =>
    `Call read on ${file} again to see its current content, then write based on that. Do not retry from memory of the older version.`,
  modifiedNoRead:
    'The file changed since it was read, and no tool for reading files is available on this step, so it cannot be replaced safely; tell the user what change you intended.',
  ioError:
    'The file could not be written (see the error). Try once more only if the cause looks temporary; otherwise tell the user.',
} as const;
