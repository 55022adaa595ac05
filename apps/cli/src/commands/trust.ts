import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { trustFolder, untrustFolder } from '@tiny-claw/runtime';
import { parseTrustArgs } from '../args.js';
import { ExitCode } from '../exit-codes.js';
import { trustHelp, untrustHelp } from '../help.js';
import { loadSettingsOnly } from '../load-settings.js';
import type { Output } from '../output.js';
import { printable } from '../terminal-text.js';
import { UsageError } from '../usage-error.js';

/**
 * `tiny-claw trust [DIR]` / `tiny-claw untrust [DIR]`: add a folder (default: the current one) to
 * the trust list in the state dir, or take it off. tiny-claw reads the `.env` of the folder it is
 * started in only when that exact folder is trusted; subfolders are not covered. The `.env` as it
 * is now is recorded with the trust, so a later change is reported; trusting an already trusted
 * folder again records its current `.env`. The state dir is the one the real environment,
 * `--env-file` and the user config choose: a project's own `.env` is never read here.
 *
 * @throws UsageError when DIR is not an existing folder (exit 2).
 * @example
 * process.exitCode = await trustCommand('trust', [], processOutput());
 */
export async function trustCommand(
  command: 'trust' | 'untrust',
  argv: string[],
  out: Output,
): Promise<number> {
  const args = parseTrustArgs(command, argv);
  if (args.help) {
    out.stdout(command === 'trust' ? trustHelp : untrustHelp);
    return ExitCode.ok;
  }
  const settings = await loadSettingsOnly({ projectDotenv: false });
  const dir = resolve(process.cwd(), args.dir ?? '.');
  if (command === 'untrust') {
    const { folder, changed } = await untrustFolder(settings.stateDir, dir);
    out.stdout(
      changed
        ? `No longer trusted: ${printable(folder)}. tiny-claw ignores its .env from now on.\n`
        : `${printable(folder)} was not trusted; nothing changed.\n`,
    );
    return ExitCode.ok;
  }
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    const shown = args.dir ?? '.';
    throw new UsageError(`${shown}: ${info ? 'not a folder' : 'no such folder'}`, command);
  }
  const { folder, changed, refreshed } = await trustFolder(settings.stateDir, dir);
  const shown = printable(folder);
  if (refreshed) {
    out.stdout(
      `${shown} was already trusted; recorded its .env as it is now, so tiny-claw no longer ` +
        'reports it as changed.\n',
    );
  } else {
    out.stdout(
      changed
        ? `Trusted ${shown}: tiny-claw now reads ${shown}/.env when started in this folder ` +
            "(not in its subfolders) and tells you if it changes. Undo with 'tiny-claw untrust'.\n"
        : `${shown} is already trusted; nothing changed.\n`,
    );
  }
  return ExitCode.ok;
}
