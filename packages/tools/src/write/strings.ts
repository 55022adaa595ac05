/**
 * Model-facing text of the `write` tool, kept in one place for a future locale.
 *
 * @example
 * writeText.errors.notRead('src/a.ts'); // 'write refused: src/a.ts already exists …'
 */
export const writeText = {
  description: (maxMb: number): string =>
    [
      'Create or replace a UTF-8 text file inside the workdir (mode "overwrite", the default), or add',
      'text to its end (mode "append"). Parent directories are created. The write is atomic and keeps',
      'the file’s permissions. An existing file must have been read with the read tool in this run',
      'and be unchanged since; for small changes to an existing file prefer the edit tool.',
      `Content is limited to ${maxMb} MB. .git and tiny-claw's state directory cannot be written.`,
    ].join(' '),
  pathDescription: 'File to write: relative to the workdir (preferred) or absolute inside it.',
  contentDescription: 'The complete text to write (overwrite) or to add at the end (append).',
  modeDescription: '"overwrite" (default) replaces the file; "append" adds content at its end.',
  modeInvalid: 'mode must be one of: overwrite, append',
  errors: {
    contentTooLarge: (bytes: number, maxMb: number): string =>
      `write refused: content is ${bytes} bytes, over the ${maxMb} MB limit of one write; nothing was written.`,
    appendTooLarge: (display: string, total: number, maxMb: number): string =>
      `write refused: appending would make ${display} ${total} bytes, over the ${maxMb} MB limit of an atomic write; nothing was written.`,
    trailingSeparator: (display: string): string =>
      `invalid path: "${display}" ends with a path separator, so it names a directory; give a file name.`,
    isDirectory: (display: string): string =>
      `write path is a directory: ${display}. Give a file path inside it instead.`,
    notRegular: (display: string, kind: string): string =>
      `write refused: ${display} is not a regular file (it is ${kind}); nothing was written.`,
    parentNotDirectory: (display: string): string =>
      `write refused: a parent of ${display} is a file, not a directory.`,
    becameSymlink: (display: string): string =>
      `write refused: ${display} changed into a symlink while being written; nothing was written. Try again.`,
    ledOutside: (display: string): string =>
      `write refused: ${display} led outside the workdir when it was opened (a directory on the way was replaced by a symlink meanwhile); nothing was written.`,
    parentMoved: (display: string): string =>
      `write refused: the directory of ${display} changed while being written (renamed or replaced by a symlink); nothing was written. Try again.`,
    notRead: (display: string): string =>
      `write refused: ${display} already exists and was not read in this run, so replacing or extending it could drop content you have not seen; nothing was written.`,
    binaryUnread: (display: string): string =>
      `write refused: ${display} already exists and is a binary file, which read cannot show, so it cannot be read before being replaced as write requires; nothing was written.`,
    tooLargeToRead: (display: string, size: number, maxMb: number): string =>
      `write refused: ${display} already exists and is ${size} bytes, over the ${maxMb} MB that read can show, so it cannot be read before being replaced as write requires; nothing was written.`,
    modified: (display: string): string =>
      `write refused: ${display} was modified since it was last read (its size, time or content differ); nothing was written.`,
    failed: (display: string, message: string): string =>
      `write tool failed for ${display}: ${message}`,
    cancelled: 'write cancelled: the run was cancelled before the file was written',
  },
  hardLinkNote: (links: number): string =>
    `note: the file had ${links} hard links; the others still show the old content (the write replaced this name with a new file).`,
} as const;
