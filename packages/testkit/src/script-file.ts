import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseScript, type Script } from '@tiny-claw/core/testing';

/**
 * Validate `script` and write it as `<dir>/<name>` for `TINY_CLAW_SCRIPT`; returns the path.
 *
 * @example
 * const path = await writeScript(ws.dir, { turns: [{ text: 'done' }] });
 */
export async function writeScript(
  dir: string,
  script: Script,
  name = 'script.json',
): Promise<string> {
  parseScript(script, name);
  const path = join(dir, name);
  await writeFile(path, `${JSON.stringify(script, null, 2)}\n`);
  return path;
}
