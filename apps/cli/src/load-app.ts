import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type Application,
  createApplication,
  loadDotenv,
  loadSettings,
  type Settings,
} from '@tiny-claw/runtime';
import { UsageError } from './usage-error.js';

/**
 * Read settings (real environment over ./.env), apply command-line overrides, and assemble the app.
 *
 * @example
 * const app = await loadApplication({ workdir: 'repo' });
 */
export async function loadApplication(
  overrides: { workdir?: string | undefined } = {},
): Promise<Application> {
  const cwd = process.cwd();
  const dotenv = await loadDotenv(join(cwd, '.env'));
  let settings: Settings = loadSettings({ env: process.env, cwd, homeDir: homedir(), dotenv });
  if (overrides.workdir !== undefined) {
    const workdir = resolve(cwd, overrides.workdir);
    const info = await stat(workdir).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new UsageError(
        `--workdir ${overrides.workdir}: ${info ? 'not a directory' : 'no such directory'}`,
        'run',
      );
    }
    settings = { ...settings, workdir };
  }
  return createApplication(settings);
}
