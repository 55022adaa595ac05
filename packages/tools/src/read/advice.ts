import { pathGuardFailure } from '../path-advice.js';
import type { PathGuardErrorType } from '../path-guard.js';
import { parentToList, shellWord } from '../shell-word.js';
import { failureOf, pointingTo, type ToolFailure } from '../tool-failure.js';

/**
 * Every failure code (`failure.code`) the `read` tool reports.
 *
 * @example
 * const type: ReadErrorType = 'binary_file';
 */
export type ReadErrorType =
  | PathGuardErrorType
  | 'not_found'
  | 'is_directory'
  | 'not_regular_file'
  | 'file_too_large'
  | 'binary_file'
  | 'path_changed'
  | 'cancelled'
  | 'execution_error';

/** The call a failure is about: the path as the model wrote it and the tools it can call now. */
interface ReadCall {
  path: string;
  visibleTools: readonly string[];
}

/**
 * The failure kind and advice of one `read` refusal. A file read refuses for what it is
 * (directory, binary, too large) gets advice that never says "read it first": reading it again
 * fails the same way.
 *
 * @example
 * readFailure('not_found', { path: 'src/x.ts', visibleTools: ['read', 'bash'] });
 * // { kind: 'not_found', advice: 'Check what exists first: call bash with `ls src`, …', suggestedTool: 'bash' }
 */
export function readFailure(errorType: ReadErrorType, call: ReadCall): ToolFailure {
  const bash = call.visibleTools.includes('bash');
  const viaBash = (withBash: string, without: string) =>
    pointingTo('unsupported_target', bash ? withBash : without, 'bash', call.visibleTools);
  switch (errorType) {
    case 'invalid_path':
    case 'path_outside_root':
    case 'protected_path':
    case 'workdir_unavailable':
      return pathGuardFailure(errorType, call.visibleTools);
    case 'not_found':
      return bash
        ? pointingTo(
            'not_found',
            readAdvice.notFoundWithBash(parentToList(call.path)),
            'bash',
            call.visibleTools,
          )
        : failureOf('not_found', readAdvice.notFoundWithoutBash);
    case 'is_directory':
      return viaBash(readAdvice.directoryWithBash(call.path), readAdvice.directoryWithoutBash);
    case 'not_regular_file':
      return failureOf('unsupported_target', readAdvice.notRegular);
    case 'file_too_large':
      return viaBash(readAdvice.tooLargeWithBash, readAdvice.tooLargeWithoutBash);
    case 'binary_file':
      return viaBash(readAdvice.binaryWithBash, readAdvice.binaryWithoutBash);
    case 'path_changed':
      return failureOf('execution_error', readAdvice.pathChanged);
    case 'cancelled':
      return failureOf('cancelled');
    case 'execution_error':
      return failureOf('execution_error', readAdvice.ioError);
  }
}

/**
 * Model-facing advice of the `read` tool, kept in one place for a future locale.
 *
 * @example
 * readAdvice.notFoundWithBash('src'); // 'Check what exists first: call bash with `ls src`, …'
 */
export const readAdvice = {
  notFoundWithBash: (parent: string): string =>
    `Check what exists first: call bash with \`ls ${shellWord(parent)}\`, then read a path you have seen listed. Do not keep guessing file names.`,
  notFoundWithoutBash:
    'No tool for listing directories is available on this step. Read a path you have already seen confirmed (in an earlier result or in the user message), or ask the user for the right path. Do not keep guessing file names.',
  directoryWithBash: (dir: string): string =>
    `See what it holds with bash (\`ls ${shellWord(dir)}\`), then read one of the files in it.`,
  directoryWithoutBash:
    'Read a file inside it instead: a path you have seen confirmed in earlier output or in the user message, or ask the user which file they mean.',
  notRegular:
    'Pipes, sockets and devices cannot be read with read at all; choose a regular file, or ask the user for the content you need.',
  tooLargeWithBash:
    'read refuses this file however it is called, so do not read it again. Look at the part you need with bash instead: `head -n 100`, `tail -n 100`, `sed -n 1000,1100p` or `grep -n` for a pattern.',
  tooLargeWithoutBash:
    'read refuses this file however it is called, so do not read it again, and no other tool here can open it. Tell the user, and ask for a smaller file or an excerpt.',
  binaryWithBash:
    'It is not UTF-8 text, so read will refuse it every time; do not read it again. Inspect it with bash instead (`file`, `xxd | head`), or convert a copy to UTF-8 (`iconv`) if it is text in another encoding.',
  binaryWithoutBash:
    'It is not UTF-8 text, so read will refuse it every time and no other tool here can open it; do not read it again. Tell the user what you needed from it.',
  pathChanged:
    'Something replaced the file while it was being read. Read it once more; if that fails the same way, tell the user another process keeps changing it.',
  ioError:
    'The file exists but could not be read (see the error). Try once more only if the cause looks temporary; otherwise tell the user.',
} as const;
