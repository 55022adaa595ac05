import { pathGuardFailure } from '../path-advice.js';
import type { PathGuardErrorType } from '../path-guard.js';
import { parentToList, shellWord } from '../shell-word.js';
import { failureOf, pointingTo, type ToolFailure } from '../tool-failure.js';

/**
 * Every failure code (`failure.code`) the `edit` tool reports.
 *
 * @example
 * const type: EditErrorType = 'edit_old_text_not_found';
 */
export type EditErrorType =
  | PathGuardErrorType
  | 'empty_old_text'
  | 'same_text'
  | 'no_change'
  | 'not_found'
  | 'is_directory'
  | 'not_regular_file'
  | 'file_too_large'
  | 'not_utf8'
  | 'binary_file'
  | 'file_not_read'
  | 'file_modified'
  | 'edit_old_text_not_found'
  | 'edit_multiple_matches'
  | 'path_changed'
  | 'cancelled'
  | 'execution_error';

/** The call a failure is about: the path as the model wrote it and the tools it can call now. */
interface EditCall {
  path: string;
  visibleTools: readonly string[];
}

/**
 * The failure kind and advice of one `edit` refusal. Missing or ambiguous text and a stale read
 * point to `read` when the model can call it; a file edit can never change (too large, not
 * UTF-8) or one `read` refuses (binary) gets advice that does not loop back to reading it.
 *
 * @example
 * editFailure('edit_old_text_not_found', { path: 'a.ts', visibleTools: ['edit'] }).advice;
 * // 'Copy old_text exactly from the file content you last saw, …'
 */
export function editFailure(errorType: EditErrorType, call: EditCall): ToolFailure {
  const { visibleTools } = call;
  const can = (tool: string) => visibleTools.includes(tool);
  const toRead = (kind: 'stale_read' | 'no_match' | 'ambiguous_match', advice: string) =>
    pointingTo(kind, advice, 'read', visibleTools);
  switch (errorType) {
    case 'invalid_path':
    case 'path_outside_root':
    case 'protected_path':
    case 'workdir_unavailable':
      return pathGuardFailure(errorType, visibleTools);
    case 'empty_old_text':
      return pointingTo(
        'invalid_arguments',
        can('write') ? editAdvice.emptyOldTextWithWrite : editAdvice.emptyOldText,
        'write',
        visibleTools,
      );
    case 'same_text':
      return failureOf('invalid_arguments', editAdvice.sameText);
    case 'no_change':
      return failureOf('invalid_arguments', editAdvice.noChange);
    case 'not_found':
      return pointingTo(
        'not_found',
        editAdvice.notFound(call.path, can('bash'), can('write')),
        can('bash') ? 'bash' : 'write',
        visibleTools,
      );
    case 'is_directory':
      return failureOf('unsupported_target', editAdvice.isDirectory);
    case 'not_regular_file':
      return failureOf('unsupported_target', editAdvice.notRegular);
    case 'file_too_large':
      return pointingTo(
        'unsupported_target',
        can('bash') ? editAdvice.tooLargeWithBash : editAdvice.tooLarge,
        'bash',
        visibleTools,
      );
    case 'not_utf8':
      return pointingTo(
        'unsupported_target',
        can('bash') ? editAdvice.notUtf8WithBash : editAdvice.notUtf8,
        'bash',
        visibleTools,
      );
    case 'binary_file':
      return pointingTo(
        'unsupported_target',
        editAdvice.binary(call.path, { read: can('read'), bash: can('bash'), write: can('write') }),
        'bash',
        visibleTools,
      );
    case 'file_not_read':
      return toRead('stale_read', can('read') ? editAdvice.notRead(call.path) : editAdvice.noRead);
    case 'file_modified':
      return toRead('stale_read', can('read') ? editAdvice.modified(call.path) : editAdvice.noRead);
    case 'edit_old_text_not_found':
      return toRead(
        'no_match',
        can('read') ? editAdvice.noMatchWithRead(call.path) : editAdvice.noMatch,
      );
    case 'edit_multiple_matches':
      return toRead('ambiguous_match', editAdvice.ambiguous(can('read')));
    case 'path_changed':
      return failureOf('execution_error', editAdvice.pathChanged);
    case 'cancelled':
      return failureOf('cancelled');
    case 'execution_error':
      return failureOf('execution_error', editAdvice.ioError);
  }
}

/**
 * Model-facing advice of the `edit` tool, kept in one place for a future locale.
 *
 * @example
 * editAdvice.ambiguous(true); // 'Read the file, then make old_text longer …'
 */
export const editAdvice = {
  emptyOldTextWithWrite:
    'To create a file or replace all of its content, use write; to change part of a file, put the exact text to replace in old_text.',
  emptyOldText: 'Put the exact text to replace in old_text; edit cannot create or fill a file.',
  sameText: 'Put the replacement in new_text; it must differ from old_text.',
  noChange:
    'Where old_text matched, the file already reads like new_text; check whether the change is already made before editing again.',
  notFound: (file: string, bashVisible: boolean, writeVisible: boolean): string =>
    [
      bashVisible
        ? `edit only changes existing files: check the path first with bash (\`ls ${shellWord(parentToList(file))}\`).`
        : 'edit only changes existing files: check the path against one you have seen confirmed in earlier output.',
      writeVisible ? 'If the file should be new, create it with write.' : '',
    ]
      .filter(Boolean)
      .join(' '),
  isDirectory: 'Give the path of a file inside that directory.',
  notRegular: 'edit only changes regular text files, never pipes, sockets or devices.',
  tooLargeWithBash:
    'edit refuses a file this large however it is called, so do not retry it; change the file with bash instead (for example `sed -i` on the lines you need).',
  tooLarge:
    'edit refuses a file this large however it is called, and no other tool here can change it; do not retry. Tell the user what change you intended.',
  notUtf8WithBash:
    'edit only changes UTF-8 text, so it will refuse this file every time; change it with bash instead (for example convert it with `iconv`, or use `sed`).',
  notUtf8:
    'edit only changes UTF-8 text, so it will refuse this file every time, and no other tool here can change it; tell the user what change you intended.',
  binary: (file: string, visible: { read: boolean; bash: boolean; write: boolean }): string =>
    [
      visible.read
        ? 'read refuses binary files every time, so do not call read on this one; edit needs that read, so it cannot change this file either.'
        : 'edit needs the file to have been seen first, and a binary file cannot be shown, so edit cannot change it.',
      visible.bash
        ? `Inspect it with bash (\`file ${shellWord(file)}\`, \`xxd ${shellWord(file)} | head\`) and change it with bash instead (for example a short script), or convert it with \`iconv\` first if it is text in another encoding.`
        : visible.write
          ? 'If you need new content, put it in a new file with write; otherwise tell the user what change you intended.'
          : 'Do not retry; tell the user what change you intended.',
    ].join(' '),
  notRead: (file: string): string =>
    `Call read on ${file} first, then retry with old_text copied from that output.`,
  modified: (file: string): string =>
    `Call read on ${file} again and redo the edit against its current content; do not retry from memory of the older version.`,
  noRead:
    'No tool for reading files is available on this step, so this file cannot be changed safely; tell the user what change you intended.',
  noMatchWithRead: (file: string): string =>
    `Call read on ${file} to see its current content, then copy old_text exactly from it, without the \`N: \` line-number prefixes. Do not resend the same old_text or rebuild it from memory.`,
  noMatch:
    'Copy old_text exactly from the file content you last saw, without the `N: ` line-number prefixes, or use a shorter fragment that is certainly unchanged. Do not resend the same old_text.',
  ambiguous: (readVisible: boolean): string =>
    `${readVisible ? 'Read the file, then make' : 'Make'} old_text longer with surrounding lines so it matches exactly one place, or set replace_all to true if every occurrence should change. Do not resend the same old_text.`,
  pathChanged:
    'Something replaced the file or its directory while it was being edited; nothing was written. Try once more; if it fails the same way, tell the user another process keeps changing it.',
  ioError:
    'The file could not be read or written (see the error). Try once more only if the cause looks temporary; otherwise tell the user.',
} as const;
