import { realpath } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { Settings } from './settings-schema.js';

/** The tools that change files or run commands: with them, a workdir of `/` or home is refused. */
const CHANGING_TOOLS = ['write', 'edit', 'bash'] as const;

/** The canonical form of an absolute path, or the path itself when it cannot be resolved. */
async function canonical(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path));
}

/**
 * Why the workdir must be refused, or `undefined` when it may be used: the workdir resolves
 * (symlinks followed) to the filesystem root or to one of `homeDirs` (pass `$HOME` and the
 * account's home directory), and write, edit or bash would be offered (enabled, and not kept out by
 * the allow or deny list), and the user did not consent — `TINY_CLAW_ALLOW_ROOT_WORKDIR=1`, or
 * `consent` when the front end's `--allow-root-workdir` flag was given. The message names both,
 * and how to choose another workdir (`chooseWith`, default `--workdir DIR or TINY_CLAW_WORKDIR`).
 *
 * @example
 * const refusal = await rootWorkdirRefusal(settings, { homeDirs: [process.env.HOME, os.homedir()], consent: false });
 * if (refusal !== undefined) throw new UsageError(refusal);
 */
export async function rootWorkdirRefusal(
  settings: Settings,
  options: {
    homeDirs: readonly (string | undefined)[];
    consent: boolean;
    chooseWith?: string;
  },
): Promise<string | undefined> {
  if (options.consent || settings.allowRootWorkdir === 'on') return undefined;
  const { toolAllowlist: allow, toolDenylist: deny } = settings;
  const changing = CHANGING_TOOLS.filter(
    (tool) =>
      settings.enabledTools.includes(tool) &&
      (allow.length === 0 || allow.includes(tool)) &&
      !deny.includes(tool),
  );
  if (changing.length === 0) return undefined;
  const workdir = await canonical(settings.workdir);
  let what: string | undefined;
  if (workdir === '/') {
    what = 'the filesystem root /';
  } else {
    for (const home of options.homeDirs) {
      if (home === undefined || !isAbsolute(home)) continue;
      if ((await canonical(home)) === workdir) {
        what = `your home directory ${workdir}`;
        break;
      }
    }
  }
  if (what === undefined) return undefined;
  return (
    `refusing to work in ${what} with ${changing.join(', ')} enabled: the agent could change ` +
    'any file there, your shell start-up files and keys included. Work in a project folder ' +
    `instead (${options.chooseWith ?? '--workdir DIR or TINY_CLAW_WORKDIR'}), or, if you mean ` +
    'it, pass --allow-root-workdir or set TINY_CLAW_ALLOW_ROOT_WORKDIR=1.'
  );
}
