import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Live (not zombie) processes whose command line contains `text`, by pid. Linux only (`/proc`).
 *
 * @example
 * const pids = await processesWith('sleep 30.marker-1a2b');
 */
export async function processesWith(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      if (!cmdline.includes(text)) continue;
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/**
 * The processes whose command line contains `text` that are still alive after a generous bound
 * (polled every `intervalMs`, `tries` times): a killed process takes a moment to leave the process
 * table, so no single look decides. Empty when they all went.
 *
 * @example
 * expect(await survivingProcesses(marker)).toEqual([]);
 */
export async function survivingProcesses(
  text: string,
  options: { tries?: number; intervalMs?: number } = {},
): Promise<number[]> {
  let left = await processesWith(text);
  for (let tries = 0; tries < (options.tries ?? 250) && left.length > 0; tries += 1) {
    await delay(options.intervalMs ?? 40);
    left = await processesWith(text);
  }
  return left;
}
