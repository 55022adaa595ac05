import type { SandboxInForce } from './risk-policy-options.js';
import type { RiskFinding } from './risk-verdict.js';
import type { SimpleCommand } from './shell/simple-command.js';
import type { WorkspacePaths } from './workspace-paths.js';

/**
 * Everything a rule may look at besides the command it judges.
 *
 * @example
 * const scene: BashScene = { paths, cwd: '/w', bases: ['/w', '/w/src'], commands: analysis.commands, sandbox: 'off', leavesWorkdir: false };
 */
export interface BashScene {
  readonly paths: WorkspacePaths;
  /** The directory the command starts in. */
  readonly cwd: string;
  /** Directories relative paths may be relative to: the cwd and where any `cd` in the command goes. */
  readonly bases: readonly string[];
  /** Every command of the program (a rule may look at the rest of its pipeline). */
  readonly commands: readonly SimpleCommand[];
  /** The sandbox the commands run in, or `null` when the caller did not say. */
  readonly sandbox: SandboxInForce | null;
  /** Whether a `cd` may move outside the workdir, so a relative path may land anywhere. */
  readonly leavesWorkdir: boolean;
}

/**
 * How a rule words its findings about one command: `ask` needs approval, `refuse` denies; both
 * append the command as written.
 *
 * @example
 * voice.ask('stops processes'); // { level: 'approval_required', reason: 'stops processes (`kill 1`)' }
 */
export interface Voice {
  readonly ask: (what: string) => RiskFinding;
  readonly refuse: (what: string) => RiskFinding;
}

/**
 * A rule for commands of one name.
 *
 * @example
 * const kill: CommandRule = (_command, _scene, voice) => [voice.ask('stops processes')];
 */
export type CommandRule = (command: SimpleCommand, scene: BashScene, voice: Voice) => RiskFinding[];
