import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { printable } from '../terminal-text.js';

/** How many earlier prompts Up/Down offer. */
export const HISTORY_LINES = 500;

const lineSchema = z.object({ prompt: z.string() });

/**
 * Where the prompts of one workdir are kept: `<state dir>/chat-history/<workdir hash>.jsonl`, the
 * hash being the one the workdir's session keys carry.
 *
 * @example
 * historyPath('/home/me/.tiny-claw', 'cli-1a2b3c4d5e6f-default'); // …/chat-history/1a2b3c4d5e6f.jsonl
 */
export function historyPath(stateDir: string, sessionKey: string): string {
  const hash = /^cli-([0-9a-f]{12})-/.exec(sessionKey)?.[1] ?? 'unknown';
  return join(stateDir, 'chat-history', `${hash}.jsonl`);
}

/**
 * The last {@link HISTORY_LINES} prompts of the file, oldest first. A missing file is an empty
 * history; a line that is not a `{ "prompt": … }` object is skipped. Control characters are shown
 * as escapes (`\x1b`): a recalled prompt is drawn on the terminal, so an edited file cannot move
 * the cursor or retitle the window through it.
 *
 * @example
 * editor.setHistory(await readHistory(path));
 */
export async function readHistory(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return [];
  }
  const prompts: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = lineSchema.safeParse(JSON.parse(line));
      if (parsed.success) prompts.push(printable(parsed.data.prompt, { multiline: true }));
    } catch {
      // A torn or hand-edited line costs that one entry, not the history.
    }
  }
  return prompts.slice(-HISTORY_LINES);
}

/**
 * Append one prompt, with secrets (keys, tokens, passwords) replaced by `redact`, to the history
 * file (created 0600, its folder 0700).
 *
 * @example
 * await appendHistory(path, 'fix the login test', redactSecrets);
 */
export async function appendHistory(
  path: string,
  prompt: string,
  redact: (text: string) => string,
): Promise<string> {
  const kept = redact(prompt);
  await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  await appendFile(path, `${JSON.stringify({ prompt: kept })}\n`, { mode: 0o600 });
  return kept;
}
