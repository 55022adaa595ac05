import { parseChatArgs } from '../chat/chat-args.js';
import { chatHelp, chatText } from '../chat/chat-strings.js';
import { ExitCode } from '../exit-codes.js';
import type { Output } from '../output.js';
import { UsageError } from '../usage-error.js';

/**
 * `tiny-claw chat` (and `tiny-claw` alone in a terminal): talk to the agent in a session, one
 * turn per prompt, until Ctrl-D. Needs a terminal on stdin: without one it is a usage error
 * (exit 2) that says how to run a prompt instead.
 *
 * @example
 * process.exitCode = await chatCommand(['--continue'], processOutput());
 */
export async function chatCommand(argv: string[], out: Output): Promise<number> {
  const args = parseChatArgs(argv);
  if (args.help) {
    const { slashList } = await import('../chat/slash-list.js');
    out.stdout(chatHelp.replace('{commands}', slashList()));
    return ExitCode.ok;
  }
  if (!process.stdin.isTTY) throw new UsageError(chatText.notTerminal, 'chat');
  const { chatLoop } = await import('../chat/repl.js');
  return chatLoop(args, out);
}
