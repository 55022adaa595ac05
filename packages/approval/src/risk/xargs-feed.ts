import type { BashScene, Voice } from './bash-scene.js';
import { readFindings } from './path-findings.js';
import { READ_ONLY_COMMANDS, type ReadOnlySpec } from './read-only-commands.js';
import type { RiskFinding } from './risk-verdict.js';
import { ownEntry } from './shell/own-entry.js';
import type { ShellWord } from './shell/shell-word.js';
import type { SimpleCommand } from './shell/simple-command.js';

// `feeder | xargs receiver args` runs `receiver args NAME…` with names the feeder printed. It only
// reads when all of these hold:
// - xargs is given only options that split its input or batch the runs (no `-I` replacement, no
//   `-a` file, no `-p`/`-o` terminal, no end-of-file marker), and no other wrapper is involved;
// - the stage before it lists workdir files (`ls`, `find` without actions, `git ls-files`) and is
//   itself allowed, so the names are names of files inside the workdir;
// - the receiver is on the read-only list and no argument can change that: it has no veto and no
//   operand it writes, and either no option in its table is anything but harmless, or the names
//   cannot start with `-` (`find DIR -print0 | xargs -0`: every name starts with DIR, and NUL
//   separation keeps a name with blanks in one piece);
// - a receiver that reads the files' contents is judged as if given a glob standing for the
//   names: `*` for `ls`, `**` for `find` and `git ls-files`, so it asks exactly where that glob
//   would (a glob may match files that hold secrets).
const SAFE_XARGS_OPTIONS = new Set([
  '-0',
  '--null',
  '-r',
  '--no-run-if-empty',
  '-n',
  '--max-args',
  '-L',
  '--max-lines',
  '-P',
  '--max-procs',
  '-s',
  '--max-chars',
  '-d',
  '--delimiter',
  '-x',
  '--exit',
  '-t',
  '--verbose',
]);

type Listing = { readonly names: string; readonly dashFree: boolean };

function glob(value: string): ShellWord {
  return { text: value, value, prefix: '', expands: true };
}

// What a listing stage prints, as a glob, and whether none of its names can start with `-`.
function listingOf(feeder: SimpleCommand, nulSeparated: boolean): Listing | null {
  if (feeder.wrappers.length > 0 || feeder.assignments.length > 0) return null;
  const args = feeder.args.map((arg) => arg.value);
  if (feeder.program === 'ls') return { names: '*', dashFree: false };
  if (feeder.program === 'git' && args[0] === 'ls-files') return { names: '**', dashFree: false };
  if (feeder.program !== 'find') return null;
  const start = args[0];
  const dashFree =
    nulSeparated &&
    args.includes('-print0') &&
    start !== undefined &&
    start !== null &&
    !start.startsWith('-');
  return { names: '**', dashFree };
}

function receiverSafe(spec: ReadOnlySpec, dashFree: boolean): boolean {
  if (spec.veto !== undefined || spec.writes !== undefined) return false;
  if (spec.syntax.kind === 'text') return true;
  if (!('table' in spec.syntax)) return false;
  return !spec.syntax.table.risky || dashFree;
}

/**
 * Findings for the names `xargs` feeds a read-only command, or `null` when this use of xargs is
 * not one the analysis can follow (then xargs asks, as it always did).
 *
 * @example
 * xargsFeedFindings(command('ls | xargs stat'), scene, voice); // []
 */
export function xargsFeedFindings(
  command: SimpleCommand,
  scene: BashScene,
  voice: Voice,
  judge: (command: SimpleCommand) => RiskFinding[],
): RiskFinding[] | null {
  if (command.wrappers.length !== 1 || command.wrappers[0] !== 'xargs') return null;
  if (command.assignments.length > 0 || command.unwrapProblem !== undefined) return null;
  const options = command.wrapperOptions?.[0] ?? [];
  if (!options.every((option) => SAFE_XARGS_OPTIONS.has(option))) return null;
  const program = command.program;
  if (program === null || program.includes('/')) return null;
  const spec = ownEntry(READ_ONLY_COMMANDS, program);
  const pipeline = command.pipeline;
  if (spec === undefined || pipeline === null || pipeline.stage === 0) return null;
  const feeder = scene.commands.find(
    (other) =>
      other.pipeline?.id === pipeline.id &&
      other.pipeline.stage === pipeline.stage - 1 &&
      other.origin.length === command.origin.length,
  );
  if (feeder === undefined || judge(feeder).length > 0) return null;
  const listing = listingOf(feeder, options.includes('-0') || options.includes('--null'));
  if (listing === null || !receiverSafe(spec, listing.dashFree)) return null;
  if (spec.operands !== 'contents') return [];
  return readFindings(glob(listing.names), scene, 'contents').map((finding) =>
    voice.ask(
      `${finding.reason.replace(/ \(`[^`]*`\)$/, '')}: the files ${feeder.program} lists and xargs passes on`,
    ),
  );
}
