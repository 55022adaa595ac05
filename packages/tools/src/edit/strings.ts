/**
 * Every model-facing message of the `edit` tool, in one place so a locale can be added later.
 *
 * @example
 * editText.notFound('src/a.ts'); // 'edit could not find old_text in src/a.ts.'
 */
export const editText = {
  description: [
    'Replace text in an existing UTF-8 file inside the workdir: old_text must occur exactly once',
    '(include enough surrounding lines to make it unique) unless replace_all is true. Copy old_text',
    'from a fresh `read` output without the "N: " line-number prefixes. Small whitespace or',
    'indentation differences are tolerated and the strategy used is reported. Line endings, BOM,',
    'trailing newline and file mode are kept. To create a file or rewrite it entirely, use write.',
  ].join(' '),
  pathArg: 'File to edit: relative to the workdir (preferred) or absolute inside it.',
  oldTextArg: 'Exact text to replace (copied from read output, without the "N: " prefixes).',
  newTextArg: 'Replacement text (may be empty to delete old_text).',
  replaceAllArg: 'Replace every occurrence instead of requiring exactly one (default false).',

  emptyOldText:
    "edit tool requires a non-empty 'old_text' field: it replaces existing text, so it cannot create or fill a file.",
  sameText:
    "edit tool requires 'old_text' and 'new_text' to be different; nothing was changed. Put the text you want in new_text.",
  notFoundFile: (p: string) => `edit path does not exist: ${p}. edit only changes existing files.`,
  isDirectory: (p: string) => `edit path is a directory: ${p}. Give the path of a file inside it.`,
  notRegular: (p: string, kind: string) =>
    `edit refused: ${p} is not a regular file (it is ${kind}); it was not opened.`,
  tooLarge: (p: string, size: string, limitMb: number) =>
    `edit refused: ${p} is ${size}, over the ${limitMb} MB limit; it was not changed.`,
  grewTooLarge: (p: string, limitMb: number) =>
    `edit refused: ${p} grew over the ${limitMb} MB limit while being read.`,
  notUtf8: (p: string) =>
    `edit tool only supports UTF-8 text files: ${p} is not valid UTF-8 (or is binary), so it was not changed.`,
  otherEncoding: (p: string, encoding: string) =>
    `edit tool only supports UTF-8 text files: ${p} starts with a ${encoding} byte-order mark, so it was not changed.`,
  binaryUnread: (p: string) =>
    `edit refused: ${p} is a binary file, which read cannot show, so it cannot be read before the edit as edit requires; it was not changed.`,
  notRead: (p: string) =>
    `edit refused: ${p} was not read in this run, so the edit could be based on a stale or imagined version; it was not changed.`,
  modifiedSinceRead: (p: string) =>
    `edit refused: ${p} was modified since it was read (its modification time, size or content changed); it was not changed.`,
  changedDuringEdit: (p: string) =>
    `edit refused: ${p} changed on disk while the edit was being prepared; nothing was written.`,
  cancelled: 'edit cancelled; the file was not changed.',
  readFailed: (p: string, code: string) => `edit tool failed to read ${p}: ${code}`,
  writeFailed: (p: string, message: string) =>
    `edit tool failed to write ${p}: ${message}. The file was left unchanged.`,
  symlinkSwapped: (p: string) =>
    `edit refused: ${p} changed into a symlink while being edited; nothing was written.`,
  ledOutside: (p: string) =>
    `edit refused: ${p} led outside the workdir when it was opened (a directory on the way was replaced by a symlink meanwhile); nothing was read or written.`,

  notFound: (p: string) => `edit could not find old_text in ${p}; the file was not changed.`,
  notFoundBudget: (p: string) =>
    `edit could not find old_text in ${p}: fuzzy matching stopped at its time budget (large file or very repetitive old_text), so nothing was guessed and the file was not changed.`,
  noCloseRegion: 'No line of old_text resembles any line of the file.',
  closestRegion: (line: number, count: number, same: number) =>
    `Closest region: line ${line} (${same} of ${count} old_text line${count === 1 ? '' : 's'} equal there after trimming whitespace).`,
  firstDifference: (oldLine: number, fileLine: number) =>
    `First difference, old_text line ${oldLine} vs file line ${fileLine} (· = space, → = tab):`,
  pastEndOfFile: '(end of file: the file has no more lines)',
  tips: 'Tips: copy old_text exactly from the current content (whitespace matters), without the "N: " line-number prefixes of read output; keep old_text short but unique.',
  prefixDetected:
    'old_text seems to contain the "N: " line-number prefixes from read output: remove them (they are not part of the file) and copy the text exactly.',
  multipleMatches: (p: string, count: number, lines: readonly number[], strategy: string) =>
    `edit found multiple matches for old_text in ${p}: ${count} matches (strategy ${strategy}) at lines [${lines.join(', ')}]${count > lines.length ? ', …' : ''}. Add more surrounding lines to old_text so it matches exactly once, or set replace_all to true to change every occurrence. The file was not changed.`,
  noEffect: (p: string) =>
    `edit would not change ${p}: new_text equals the text that matched (after whitespace adjustment). Nothing was written.`,
} as const;

/**
 * Notes appended to a successful edit's output.
 *
 * @example
 * editNotes.fuzzy('line_trimmed');
 */
export const editNotes = {
  fuzzy: (strategy: string) =>
    `note: old_text did not match exactly; it was matched with strategy ${strategy}. Check the snippet below.`,
  prefixStripped:
    'note: old_text matched only after removing the "N: " line-number prefixes copied from read (removed from new_text too); do not include them next time.',
} as const;
