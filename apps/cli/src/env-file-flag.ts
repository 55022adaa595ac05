import { UsageError } from './usage-error.js';

const FLAG = '--env-file';

/**
 * The global `--env-file PATH` flag (also `--env-file=PATH`), taken out of the arguments wherever
 * it stands — before or after the command name — so each command parses only its own options.
 * Arguments after `--` are left alone.
 *
 * @throws UsageError when the flag has no path or is given twice.
 * @example
 * takeEnvFileFlag(['--env-file', 'team.env', 'run', 'hi']); // → { envFile: 'team.env', rest: ['run', 'hi'] }
 */
export function takeEnvFileFlag(argv: readonly string[]): {
  envFile: string | undefined;
  rest: string[];
} {
  let envFile: string | undefined;
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
    } else {
      rest.push(arg);
    }
  }
  return { envFile, rest };
}

/**
 * What the current command line says about where settings come from, and where notices about them
 * go. Set once by `main` before a command runs; read by the settings loader, so the commands do
 * not have to pass it along.
 *
 * @example
 * const invocation: SettingsInvocation = { envFile: 'team.env', notice: (line) => process.stderr.write(line) };
 */
export interface SettingsInvocation {
  readonly envFile: string | undefined;
  /** Writes one notice line (with its newline) to stderr. */
  readonly notice: (line: string) => void;
}

let current: SettingsInvocation = {
  envFile: undefined,
  notice: (line) => process.stderr.write(line),
};

/**
 * Set the {@link SettingsInvocation} of the command that is about to run.
 *
 * @example
 * useSettingsInvocation({ envFile: undefined, notice: out.stderr });
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
