import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadDotenv, loadSettings, type Settings } from '@tiny-claw/runtime';

/**
 * The validated settings exactly as `loadApplication` reads them (real environment over
 * ./.env), without assembling providers and tools: for commands that only read tiny-claw's state,
 * such as `trace`, and so need no model key.
 *
 * @example
 * const { stateDir, workdir } = await loadSettingsOnly();
 */
export async function loadSettingsOnly(): Promise<Settings> {
  const cwd = process.cwd();
  const dotenv = await loadDotenv(join(cwd, '.env'));
  return loadSettings({ env: process.env, cwd, homeDir: homedir(), dotenv });
}
