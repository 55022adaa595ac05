import { UsageError } from './usage-error.js';

const FLAG = '--env-file';
const ALLOW_ROOT_WORKDIR = '--allow-root-workdir';

/**
 * The global flags, taken out of the arguments wherever they stand — before or after the command
 * name — so each command parses only its own options: `--env-file PATH` (also `--env-file=PATH`)
 * and `--allow-root-workdir` (consent to work in `/` or the home directory with tools that change
 * files). Arguments after `--` are left alone.
 *
 * @throws UsageError when `--env-file` has no path or is given twice, or when
 * `--allow-root-workdir` is given a value.
 * @example
 * takeGlobalFlags(['--env-file', 'team.env', 'run', 'hi']);
 * // → { envFile: 'team.env', allowRootWorkdir: false, rest: ['run', 'hi'] }
 */
export function takeGlobalFlags(argv: readonly string[]): {
  envFile: string | undefined;
  allowRootWorkdir: boolean;
  rest: string[];
} {
  let envFile: string | undefined;
  let allowRootWorkdir = false;
  const rest: string[] = [];
  const take = (value: string | undefined) => {
    if (value === undefined || value === '' || (value.startsWith('-') && value !== '-')) {
      throw new UsageError(`${FLAG} needs the path of a settings file, e.g. ${FLAG} ./team.env`);
    }
    if (envFile !== undefined) throw new UsageError(`${FLAG} can be given only once`);
    envFile = value;
  };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === '--') {
      rest.push(...argv.slice(index));
      break;
    }
    if (arg === FLAG) {
      take(argv[index + 1]);
      index += 1;
    } else if (arg.startsWith(`${FLAG}=`)) {
      take(arg.slice(FLAG.length + 1));
    } else if (arg === ALLOW_ROOT_WORKDIR) {
      allowRootWorkdir = true;
    } else if (arg.startsWith(`${ALLOW_ROOT_WORKDIR}=`)) {
      throw new UsageError(
        `${ALLOW_ROOT_WORKDIR} takes no value; give it alone, or set TINY_CLAW_ALLOW_ROOT_WORKDIR=1`,
      );
    } else {
      rest.push(arg);
    }
  }
  return { envFile, allowRootWorkdir, rest };
}

/**
 * What the current command line says about where settings come from, and where notices about them
 * go. Set once by `main` before a command runs; read by the settings loader, so the commands do
 * not have to pass it along.
 *
 * @example
 * const invocation: SettingsInvocation = { envFile: 'team.env', allowRootWorkdir: false, notice: (line) => process.stderr.write(line) };
 */
export interface SettingsInvocation {
  readonly envFile: string | undefined;
  /** `--allow-root-workdir` was given. */
  readonly allowRootWorkdir: boolean;
  /** Writes one notice line (with its newline) to stderr. */
  readonly notice: (line: string) => void;
}

let current: SettingsInvocation = {
  envFile: undefined,
  allowRootWorkdir: false,
  notice: (line) => process.stderr.write(line),
};

/**
 * Set the {@link SettingsInvocation} of the command that is about to run.
 *
 * @example
 * useSettingsInvocation({ envFile: undefined, allowRootWorkdir: false, notice: out.stderr });
 */
export function useSettingsInvocation(invocation: SettingsInvocation): void {
  current = invocation;
}

/**
 * The {@link SettingsInvocation} of the running command.
 *
 * @example
 * const { envFile } = settingsInvocation();
 */
export function settingsInvocation(): SettingsInvocation {
  return current;
}
