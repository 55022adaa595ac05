import { slashHelp } from './chat-strings.js';

/**
 * The slash commands, one per line with what each does, as /help and `chat --help` print them.
 *
 * @example
 * out.stderr(`${slashList()}\n`);
 */
export function slashList(): string {
  const width = Math.max(...slashHelp.map(([usage]) => usage.length));
  return slashHelp.map(([usage, what]) => `  ${usage.padEnd(width)}  ${what}`).join('\n');
}
