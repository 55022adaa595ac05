import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { structuredPatch } from 'diff';
import { z } from 'zod';
import { approvalsText } from './approvals-strings.js';
import { painter, printable } from './terminal-text.js';

/** What a paused call would do, found from its arguments (data read back from disk). */
const wholeFileWrite = z.object({ path: z.string().min(1), content: z.string() });
const textReplacement = z.object({
  path: z.string().min(1),
  old_text: z.string(),
  new_text: z.string(),
  replace_all: z.boolean().optional(),
});
const shellCommand = z.object({ command: z.string() });

// Past these, a preview would bury the question: the full arguments stay one command away.
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_EDIT_LENGTH = 20_000;
const DEFAULT_MAX_LINES = 120;

/** The shell analysis the runtime offers (`Application.describeShellCommand`). */
export type DescribeShellCommand = (command: string) => Promise<{
  commands: Array<{ text: string; origin: string[] }>;
  problems: string[];
}>;

/** How to preview a call. */
export interface CallPreviewOptions {
  color: boolean;
  describeShellCommand: DescribeShellCommand;
  /** Most diff lines shown (default 120). */
  maxLines?: number;
}

/** The call of an approval request a preview needs. */
export interface PreviewedCall {
  id: string;
  workdir: string;
  arguments: Record<string, unknown>;
}

/**
 * Lines that show a person what a paused call would change, every one safe to print: a unified
 * diff of the file against the new content for a whole-file write (a new file shows its content),
 * the old and new text as a diff for a replacement, the command and each simple command it runs
 * for a shell command, and the arguments otherwise. Calls are recognised by the shape of their
 * arguments, not by the tool's name, so any tool of the same kind gets the same view. Reads the
 * target file only inside the workdir, and never follows it out.
 *
 * @example
 * const lines = await previewCall(record, { color: false, describeShellCommand: (c) => app.describeShellCommand(c) });
 * process.stderr.write(lines.map((line) => `  ${line}\n`).join(''));
 */
export async function previewCall(
  call: PreviewedCall,
  options: CallPreviewOptions,
): Promise<string[]> {
  const write = wholeFileWrite.safeParse(call.arguments);
  if (write.success) return previewWrite(call, write.data, options);
  const edit = textReplacement.safeParse(call.arguments);
  if (edit.success) {
    const { path, old_text, new_text, replace_all } = edit.data;
    const diff = unifiedDiff(
      `${path} (old text)`,
      `${path} (new text)`,
      withNewline(old_text),
      withNewline(new_text),
      options,
    );
    const lines = limit(diff ?? [approvalsText.diffTooSlow], call.id, options);
    return replace_all ? [approvalsText.replaceAll, ...lines] : lines;
  }
  const shell = shellCommand.safeParse(call.arguments);
  if (shell.success) return previewShell(shell.data.command, options);
  return [
    `${approvalsText.argumentsLabel}:`,
    ...limit(
      JSON.stringify(call.arguments, null, 2)
        .split('\n')
        .map((line) => `  ${printable(line)}`),
      call.id,
      options,
    ),
  ];
}

async function previewWrite(
  call: PreviewedCall,
  args: { path: string; content: string },
  options: CallPreviewOptions,
): Promise<string[]> {
  const current = await currentContent(call.workdir, args.path);
  const name = printable(args.path);
  if (current.kind === 'note') {
    const body = unifiedDiff('/dev/null', args.path, '', args.content, options);
    return [current.note, ...limit(body ?? [approvalsText.diffTooSlow], call.id, options)];
  }
  const old = current.kind === 'missing' ? '' : current.text;
  if (current.kind === 'text' && old === args.content) return [approvalsText.noChange];
  const diff = unifiedDiff(
    current.kind === 'missing' ? '/dev/null' : args.path,
    args.path,
    old,
    args.content,
    options,
  );
  const lines = limit(diff ?? [approvalsText.diffTooSlow], call.id, options);
  return current.kind === 'missing' ? [approvalsText.newFile(name), ...lines] : lines;
}

async function previewShell(command: string, options: CallPreviewOptions): Promise<string[]> {
  const lines = [
    `${approvalsText.commandLabel}:`,
    ...command.split('\n').map((line) => `  ${printable(line, { multiline: true })}`),
  ];
  let view: Awaited<ReturnType<DescribeShellCommand>>;
  try {
    view = await options.describeShellCommand(command);
  } catch {
    // Showing the command matters more than its analysis; the risk policy already judged it.
    return lines;
  }
  if (view.commands.length > 0) {
    lines.push(`${approvalsText.runsLabel}:`);
    for (const simple of view.commands) {
      const where = simple.origin.length > 0 ? approvalsText.nestedIn(simple.origin) : '';
      lines.push(`  · ${printable(simple.text)}${printable(where)}`);
    }
  }
  for (const problem of view.problems)
    lines.push(`${approvalsText.analysisLabel}: ${printable(problem)}`);
  return lines;
}

type Current =
  | { kind: 'missing' }
  | { kind: 'text'; text: string }
  | { kind: 'note'; note: string };

/** The file a whole-file write would replace, read only when it really lies inside the workdir. */
async function currentContent(workdir: string, path: string): Promise<Current> {
  const shown = printable(path);
  const root = await realpath(workdir).catch(() => resolve(workdir));
  const target = resolve(workdir, path);
  let real: string;
  try {
    real = await realpath(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      return {
        kind: 'note',
        note: approvalsText.unreadable(shown, (error as NodeJS.ErrnoException).code ?? 'error'),
      };
    }
    return inside(resolve(workdir), target)
      ? { kind: 'missing' }
      : { kind: 'note', note: approvalsText.outsideWorkdir(shown) };
  }
  if (!inside(root, real)) return { kind: 'note', note: approvalsText.outsideWorkdir(shown) };
  try {
    const info = await stat(real);
    if (!info.isFile()) return { kind: 'note', note: approvalsText.notRegularFile(shown) };
    if (info.size > MAX_FILE_BYTES)
      return { kind: 'note', note: approvalsText.tooLarge(shown, info.size) };
    return { kind: 'text', text: await readFile(real, 'utf8') };
  } catch (error) {
    return {
      kind: 'note',
      note: approvalsText.unreadable(shown, (error as NodeJS.ErrnoException).code ?? 'error'),
    };
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** A unified diff as printable lines, or undefined when the change is too large to compute. */
function unifiedDiff(
  oldName: string,
  newName: string,
  oldText: string,
  newText: string,
  options: CallPreviewOptions,
): string[] | undefined {
  const patch = structuredPatch(oldName, newName, oldText, newText, undefined, undefined, {
    context: 3,
    // A bound on edits rather than on time: the same input always gives the same preview.
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (!patch) return undefined;
  const paint = painter(options.color);
  const lines = [
    paint('bold', `--- ${printable(oldName)}`),
    paint('bold', `+++ ${printable(newName)}`),
  ];
  for (const hunk of patch.hunks) {
    // As in every unified diff, an empty side names the line before it (`@@ -0,0 +1,3 @@`).
    const from = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const to = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    lines.push(paint('cyan', `@@ -${from},${hunk.oldLines} +${to},${hunk.newLines} @@`));
    for (const line of hunk.lines) {
      const text = printable(line, { multiline: true });
      if (line.startsWith('+')) lines.push(paint('green', text));
      else if (line.startsWith('-')) lines.push(paint('red', text));
      else if (line.startsWith('\\')) lines.push(paint('dim', text));
      else lines.push(text);
    }
  }
  return lines;
}

function limit(lines: string[], id: string, options: CallPreviewOptions): string[] {
  const max = options.maxLines ?? DEFAULT_MAX_LINES;
  if (lines.length <= max) return lines;
  return [...lines.slice(0, max), approvalsText.moreLines(lines.length - max, id)];
}

// Snippets rarely end in a newline; adding one keeps "no newline at end of file" noise out.
function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}
