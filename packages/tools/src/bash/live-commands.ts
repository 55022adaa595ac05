import { readdirSync, readFileSync } from 'node:fs';
import { PROCESS_TAG_ENV, signalGroup, signalProcess } from './process-sweep.js';

/** A command still running: its process group and its environment tag. */
interface LiveCommand {
  pgid: number;
  tag: string;
}

const live = new Set<LiveCommand>();
let hooked = false;

/** Live processes carrying one of `tags` in their initial environment (Linux only). */
function taggedProcesses(tags: readonly string[]): number[] {
  if (process.platform !== 'linux' || tags.length === 0) return [];
  const needles = tags.map((tag) => Buffer.from(`${PROCESS_TAG_ENV}=${tag}\0`));
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`);
      if (needles.some((needle) => environ.includes(needle))) found.push(Number(name));
    } catch {
      // Gone, or not ours.
    }
  }
  return found;
}

/**
 * SIGKILL every command the bash tool is running in this process, synchronously: each process
 * group (with a sandbox, that is bubblewrap, whose death ends the command's PID namespace and
 * everything in it), then every process still carrying one of their environment tags (those that
 * left the group with `setsid`). Registered on `process.on('exit')` by the first command, so a
 * front end that exits — a second Ctrl-C calling `process.exit` — takes its commands with it.
 * Safe to call at any time; the commands then finish as killed.
 *
 * @example
 * process.on('SIGTERM', () => {
 *   killRunningCommands();
 *   process.exit(143);
 * });
 */
export function killRunningCommands(): void {
  const commands = [...live];
  for (const command of commands) signalGroup(command.pgid, 'SIGKILL');
  for (const pid of taggedProcesses(commands.map((command) => command.tag))) {
    signalProcess(pid, 'SIGKILL');
  }
}

/**
 * Record a started command until the returned function is called (when it has finished), and
 * make sure the exit hook is in place.
 *
 * @example
 * const done = trackCommand(child.pid, tag);
 * // … once finished:
 * done();
 */
export function trackCommand(pgid: number, tag: string): () => void {
  const entry: LiveCommand = { pgid, tag };
  live.add(entry);
  if (!hooked) {
    hooked = true;
    process.on('exit', killRunningCommands);
  }
  return () => {
    live.delete(entry);
  };
}
