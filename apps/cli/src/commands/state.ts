import { migrateStateStore } from '@tiny-claw/runtime';
import { ExitCode } from '../exit-codes.js';
import { stateHelp } from '../help.js';
import { loadSettingsOnly } from '../load-settings.js';
import type { Output } from '../output.js';
import { UsageError } from '../usage-error.js';

/**
 * `tiny-claw state migrate`: create or update the PostgreSQL state store's tables at
 * `TINY_CLAW_STATE_URL` now (each migration once, under an advisory lock, so it is safe while
 * other processes start) and print the schema version. Exit 0 after applying (or finding the
 * schema up to date); 78 when the URL is unset or the database cannot be reached.
 *
 * @throws UsageError for anything but `migrate` (exit 2).
 * @example
 * process.exitCode = await stateCommand(['migrate'], processOutput());
 */
export async function stateCommand(argv: string[], out: Output): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h' || rest.some(isHelp)) {
    out.stdout(stateHelp);
    return ExitCode.ok;
  }
  if (sub === undefined) throw new UsageError('state needs a command: migrate', 'state');
  if (sub !== 'migrate') {
    throw new UsageError(`unknown state command ${JSON.stringify(sub)}: expected migrate`, 'state');
  }
  if (rest.length > 0) {
    throw new UsageError(
      `state migrate takes no arguments, got ${JSON.stringify(rest[0])}`,
      'state',
    );
  }
  const settings = await loadSettingsOnly();
  const { url, version, applied } = await migrateStateStore(settings);
  out.stdout(
    applied.length === 0
      ? `The state store at ${url} is up to date: schema version ${version}.\n`
      : `Migrated the state store at ${url} to schema version ${version} (applied ${applied.join(', ')}).\n`,
  );
  return ExitCode.ok;
}

function isHelp(arg: string): boolean {
  return arg === '--help' || arg === '-h';
}
