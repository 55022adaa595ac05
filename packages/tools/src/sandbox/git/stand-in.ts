/**
 * The stand-in `.git` of a workdir without a repository is shared by the commands of this process
 * that run there at once: each holds it while it runs, and only the last one to finish removes it.
 */
const holders = new Map<string, number>();

/**
 * Count one more command using the stand-in of `workdir`.
 *
 * @example
 * holdStandIn('/repo');
 */
export function holdStandIn(workdir: string): void {
  holders.set(workdir, (holders.get(workdir) ?? 0) + 1);
}

/**
 * Count one command less; returns how many still use it (0: the stand-in may go).
 *
 * @example
 * if (releaseStandIn('/repo') === 0) await rmdir('/repo/.git');
 */
export function releaseStandIn(workdir: string): number {
  const left = (holders.get(workdir) ?? 1) - 1;
  if (left > 0) holders.set(workdir, left);
  else holders.delete(workdir);
  return left;
}
