import { readdir, readFile } from 'node:fs/promises';

/**
 * Name of the environment variable that tags every process of one bash call. A process that
 * left the process group (`setsid`, a daemonizing double fork) still carries it, so it can be
 * found by scanning `/proc/<pid>/environ` — the same trick as Jenkins' ProcessTreeKiller.
 *
 * @example
 * spawn('bash', ['-c', cmd], { env: { ...env, [PROCESS_TAG_ENV]: tag } });
 */
export const PROCESS_TAG_ENV = 'TINY_CLAW_PROCESS_TAG';

/** Files opened at once while scanning, well under any sane fd limit. */
const SCAN_CONCURRENCY = 64;

/** State and process group of a pid from `/proc/<pid>/stat`, or undefined if unreadable. */
async function readStat(pid: number): Promise<{ state: string; pgrp: number } | undefined> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may itself contain spaces and parentheses.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/**
 * Pids of live processes that belong to one bash call: members of process group `pgid`, and
 * processes whose *initial* environment contains `PROCESS_TAG_ENV=tag` (those that left the group
 * with `setsid` or a daemonizing double fork). Zombies are skipped: they are already dead, merely
 * not reaped (an init that does not reap, as in some containers, keeps them forever).
 *
 * Linux reads `/proc`; elsewhere the tag cannot be seen, so the answer is `[pgid]` while the group
 * still answers signal 0, else `[]`.
 *
 * Not found: a process that cleared its environment before exec (`env -i`) *and* left the group.
 *
 * @example
 * for (const pid of await findLiveLeftovers(tag, pgid)) process.kill(pid, 'SIGKILL');
 */
export async function findLiveLeftovers(tag: string, pgid: number | undefined): Promise<number[]> {
  if (process.platform !== 'linux') {
    return pgid !== undefined && signalGroup(pgid, 0) ? [pgid] : [];
  }
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return pgid !== undefined && signalGroup(pgid, 0) ? [pgid] : [];
  }
  const needle = Buffer.from(`${PROCESS_TAG_ENV}=${tag}\0`);
  const pids = entries.filter((name) => /^\d+$/.test(name)).map(Number);
  const found: number[] = [];
  const check = async (pid: number): Promise<boolean> => {
    if (pid === process.pid) return false;
    const stat = await readStat(pid);
    if (!stat || stat.state === 'Z' || stat.state === 'X') return false;
    if (pgid !== undefined && stat.pgrp === pgid) return true;
    try {
      const environ = await readFile(`/proc/${pid}/environ`);
      return environ.includes(needle);
    } catch {
      // Gone, or not ours (EACCES): nothing to do.
      return false;
    }
  };
  for (let i = 0; i < pids.length; i += SCAN_CONCURRENCY) {
    const batch = pids.slice(i, i + SCAN_CONCURRENCY);
    const hits = await Promise.all(batch.map(check));
    batch.forEach((pid, index) => {
      if (hits[index]) found.push(pid);
    });
  }
  return found;
}

/**
 * Send `signal` to every process of the group `pgid`; false when the group no longer exists.
 *
 * @example
 * signalGroup(child.pid, 'SIGTERM');
 */
export function signalGroup(pgid: number | undefined, signal: NodeJS.Signals | 0): boolean {
  if (pgid === undefined || pgid <= 1) return false;
  try {
    // A negative pid addresses the whole process group.
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: the group is gone. EPERM: a member changed user; nothing more we can do.
    return false;
  }
}

/**
 * Send `signal` to one process, ignoring one that is already gone.
 *
 * @example
 * signalProcess(1234, 'SIGKILL');
 */
export function signalProcess(pid: number, signal: NodeJS.Signals): void {
  if (pid <= 1 || pid === process.pid) return;
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone, or not ours.
  }
}
