import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { slashHelp } from './chat-strings.js';

const COMMANDS = slashHelp.map(([usage]) => usage.split(' ')[0] ?? usage);

/**
 * Tab completion of the chat: a slash command at the start of the line, or the `@path` mention
 * under the cursor (the entries of its folder in the workdir; folders end in `/`). Hidden entries
 * show only once a `.` is typed.
 *
 * @example
 * await completeLine('/mo', '/repo'); // [['/mode'], '/mo']
 */
export async function completeLine(
  line: string,
  workdir: string | undefined,
): Promise<[string[], string]> {
  if (/^\/\S*$/.test(line)) {
    const hits = COMMANDS.filter((command) => command.startsWith(line));
    return [hits, line];
  }
  const mention = /(?:^|\s)@(\S*)$/.exec(line);
  if (!mention || workdir === undefined) return [[], line];
  const typed = mention[1] ?? '';
  const folder = typed.includes('/') ? typed.slice(0, typed.lastIndexOf('/') + 1) : '';
  const start = typed.slice(folder.length);
  if (folder.split('/').includes('..') || folder.startsWith('/')) return [[], line];
  const entries = await readdir(join(workdir, folder), { withFileTypes: true }).catch(() => []);
  const hits = entries
    .filter(
      (entry) =>
        entry.name.startsWith(start) && (start.startsWith('.') || !entry.name.startsWith('.')),
    )
    .map((entry) => `@${folder}${entry.name}${entry.isDirectory() ? '/' : ''}`)
    .sort();
  return [hits, `@${typed}`];
}
