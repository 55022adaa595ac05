import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** Live (non-zombie) processes whose command line contains `marker`. */
export async function liveWithMarker(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = (await readFile(`/proc/${name}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (cmdline.includes(marker) && state !== 'Z') found.push(Number(name));
    } catch {
      // Exited meanwhile.
    }
  }
  return found;
}

/** Poll until no live process carries `marker`; returns what is left after `withinMs`. */
export async function survivorsAfter(marker: string, withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  let left = await liveWithMarker(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(100);
    left = await liveWithMarker(marker);
  }
  return left;
}

/** A `sleep` duration nobody else uses, so its command line identifies our process. */
export function uniqueSleep(): string {
  return `1000.${Math.floor(Math.random() * 1e9)}`;
}
