import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Application, createApplication, type Settings } from '@tiny-claw/runtime';
import { loadSettingsOnly } from './load-settings.js';
import { UsageError } from './usage-error.js';

/**
 * Read settings (see `loadSettingsOnly` for where they come from), apply command-line overrides,
 * and assemble the app.
 *
 * @example
 * const app = await loadApplication({ workdir: 'repo' });
 */
export async function loadApplication(
  overrides: {
    workdir?: string | undefined;
    /**
     * For commands that only read state and never call the model (`approvals list|show`): a
     * stand-in provider is used, so no key or script has to be configured.
     */
    withoutModel?: boolean;
    /** The command whose `--help` a bad `--workdir` points to (default `run`). */
    command?: string;
  } = {},
): Promise<Application> {
  let settings: Settings = await loadSettingsOnly();
  if (overrides.workdir !== undefined) {
    const workdir = resolve(process.cwd(), overrides.workdir);
    const info = await stat(workdir).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new UsageError(
        `--workdir ${overrides.workdir}: ${info ? 'not a directory' : 'no such directory'}`,
        overrides.command ?? 'run',
      );
    }
    settings = { ...settings, workdir };
  }
  if (overrides.withoutModel) {
    const { EchoProvider } = await import('@tiny-claw/core/testing');
    return createApplication(settings, { provider: new EchoProvider() });
  }
  return createApplication(settings);
}
