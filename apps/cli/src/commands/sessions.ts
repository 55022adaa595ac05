import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { costLabel } from '@tiny-claw/tracing';
import { parseSessionsArgs } from '../chat/chat-args.js';
import { chatText, sessionsHelp } from '../chat/chat-strings.js';
import { listSessions } from '../chat/session-list.js';
import { ExitCode } from '../exit-codes.js';
import { loadSettingsOnly } from '../load-settings.js';
import type { Output } from '../output.js';
import { printable, printableJson } from '../terminal-text.js';
import { table } from '../text-table.js';
import { UsageError } from '../usage-error.js';

/**
 * `tiny-claw sessions [--json] [--workdir DIR]`: the CLI sessions of a workdir that ran at least
 * once, most recently used first: name, last used, turns and estimated cost. Never calls the model.
 *
 * @example
 * process.exitCode = await sessionsCommand(['--json'], processOutput());
 */
export async function sessionsCommand(argv: string[], out: Output): Promise<number> {
  const args = parseSessionsArgs(argv);
  if (args.help) {
    out.stdout(sessionsHelp);
    return ExitCode.ok;
  }
  const settings = await loadSettingsOnly();
  const workdir = args.workdir === undefined ? settings.workdir : await checkedDir(args.workdir);
  const sessions = await listSessions(settings.stateDir, workdir);
  if (args.json) {
    out.stdout(`${printableJson(sessions)}\n`);
    return ExitCode.ok;
  }
  if (sessions.length === 0) {
    out.stderr(`${chatText.noSessions(printable(workdir))}\n`);
    return ExitCode.ok;
  }
  const rows = sessions.map((s) => [
    printable(s.name),
    s.lastUsed.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    String(s.turns),
    costLabel(s.costUsd),
  ]);
  out.stdout(table([[...chatText.sessionsHeader], ...rows]));
  return ExitCode.ok;
}

async function checkedDir(dir: string): Promise<string> {
  const path = resolve(process.cwd(), dir);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new UsageError(
      `--workdir ${dir}: ${info ? 'not a directory' : 'no such directory'}`,
      'sessions',
    );
  }
  return path;
}
