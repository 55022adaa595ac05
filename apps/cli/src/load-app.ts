import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import {
  type Application,
  createApplication,
  rootWorkdirRefusal,
  type Settings,
} from '@tiny-claw/runtime';
import { settingsInvocation } from './env-file-flag.js';
import { loadSettingsOnly } from './load-settings.js';
import { UsageError } from './usage-error.js';

/**
 * Read settings (see `loadSettingsOnly` for where they come from), apply command-line overrides,
 * and assemble the app. A workdir that is `/` or the home directory is refused while write, edit
 * or bash is enabled, unless the user consented (`--allow-root-workdir`,
 * `TINY_CLAW_ALLOW_ROOT_WORKDIR=1`); commands that never run a tool skip that check.
 *
 * @throws UsageError for a bad `--workdir` or a refused workdir (exit 2).
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
    /** False for a command that reports the workdir instead of working in it (`health`). */
    refuseRootWorkdir?: boolean;
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
  if (overrides.refuseRootWorkdir !== false && !overrides.withoutModel) {
    const refusal = await workdirRefusal(settings);
    if (refusal !== undefined) throw new UsageError(refusal, overrides.command ?? 'run');
  }
  if (overrides.withoutModel) {
    const { EchoProvider } = await import('@tiny-claw/core/testing');
    return createApplication(settings, { provider: new EchoProvider() });
  }
  return createApplication(settings);
}

/**
 * Why the CLI must not work in the settings' workdir (`/` or the home directory with tools that
 * change files, and no consent), or undefined when it may.
 *
 * @example
 * const refusal = await workdirRefusal(app.settings);
 */
export function workdirRefusal(settings: Settings): Promise<string | undefined> {
  return rootWorkdirRefusal(settings, {
    homeDirs: [process.env.HOME, homedir()],
    consent: settingsInvocation().allowRootWorkdir,
  });
}
