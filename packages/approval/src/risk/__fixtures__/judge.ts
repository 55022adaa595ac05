import { assessCall } from '../assess-call.js';
import type { RiskPolicyOptions } from '../risk-policy-options.js';
import type { RiskVerdict } from '../risk-verdict.js';

/**
 * A workdir that need not exist: the policy reads the file system only to list the directory a
 * leading glob expands in (see the glob-option rule), and a missing one lists nothing.
 */
export const WORKDIR = '/srv/tiny-claw-work';
/** The state dir the tests protect. */
export const STATE_DIR = `${WORKDIR}/.tiny-claw`;

/** The verdict for a bash command under the test policy. */
export function judgeBash(command: string, extra: Partial<RiskPolicyOptions> & { cwd?: string } = {}): Promise<RiskVerdict> {
  const { cwd, ...options } = extra;
  return assessCall(
    { name: 'bash', arguments: cwd === undefined ? { command } : { command, cwd } },
    { workdir: WORKDIR, protectedPaths: [STATE_DIR], ...options },
  );
}

/** The verdicts for several commands, keyed by command, for one readable assertion. */
export async function verdictsOf(commands: readonly string[]): Promise<Record<string, RiskVerdict['verdict']>> {
  const entries = await Promise.all(commands.map(async (command) => [command, (await judgeBash(command)).verdict] as const));
  return Object.fromEntries(entries);
}

/** The same verdict for every command, for `toEqual(everyVerdict(commands, 'deny'))`. */
export function everyVerdict(commands: readonly string[], verdict: RiskVerdict['verdict']): Record<string, RiskVerdict['verdict']> {
  return Object.fromEntries(commands.map((command) => [command, verdict]));
}
