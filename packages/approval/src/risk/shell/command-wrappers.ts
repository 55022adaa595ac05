import { type OptionSpec, scanLeadingOptions } from './option-scan.js';
import { ownEntry } from './own-entry.js';
import type { ShellWord } from './shell-word.js';
import type { ShellAssignment } from './simple-command.js';

/**
 * How a wrapper command is laid out: its options, then (for some) operands of its own, then the
 * command it runs.
 *
 * @example
 * const timeout: WrapperSpec = { valued: ['-s', '-k'], leadingOperands: 1 };
 */
export interface WrapperSpec extends OptionSpec {
  /** Operands the wrapper takes before the command (`timeout`'s duration). */
  readonly leadingOperands?: number;
  /** `NAME=value` operands before the command set its environment (`env`). */
  readonly assignments?: boolean;
  /** Options that make it look a name up instead of running it (`command -v`). */
  readonly lookups?: readonly string[];
  /** Options whose value the wrapper splits into a command itself (`env -S`): not followed. */
  readonly opaque?: readonly string[];
}

/**
 * The wrappers whose command is unwrapped and judged (any other wrapper is an unknown command
 * and needs approval). `sudo` and `doas` also need approval themselves; `xargs` appends
 * arguments read from its input.
 *
 * @example
 * COMMAND_WRAPPERS.timeout.leadingOperands; // 1
 */
export const COMMAND_WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: {
    flags: ['-i', '--ignore-environment', '-0', '--null', '-v', '--debug'],
    valued: ['-u', '--unset'],
    assignments: true,
    opaque: ['-S', '--split-string'],
  },
  command: { flags: ['-p'], lookups: ['-v', '-V'] },
  builtin: {},
  exec: { flags: ['-c', '-l'], valued: ['-a'] },
  nice: { valued: ['-n', '--adjustment'], numeric: true },
  nohup: {},
  timeout: {
    flags: ['--preserve-status', '--foreground', '-v', '--verbose'],
    valued: ['-s', '--signal', '-k', '--kill-after'],
    leadingOperands: 1,
  },
  time: { flags: ['-p'] },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  xargs: {
    flags: [
      '-0',
      '--null',
      '-r',
      '--no-run-if-empty',
      '-t',
      '--verbose',
      '-x',
      '--exit',
      '-p',
      '--interactive',
    ],
    valued: [
      '-I',
      '--replace',
      '-L',
      '--max-lines',
      '-n',
      '--max-args',
      '-P',
      '--max-procs',
      '-s',
      '--max-chars',
      '-d',
      '--delimiter',
      '-E',
      '--eof',
      '-a',
      '--arg-file',
      '--process-slot-var',
    ],
  },
  sudo: {
    flags: [
      '-A',
      '--askpass',
      '-b',
      '--background',
      '-E',
      '--preserve-env',
      '-H',
      '--set-home',
      '-i',
      '--login',
      '-n',
      '--non-interactive',
      '-P',
      '--preserve-groups',
      '-s',
      '--shell',
      '-S',
      '--stdin',
      '-k',
      '--reset-timestamp',
      '-B',
      '--bell',
    ],
    valued: [
      '-u',
      '--user',
      '-g',
      '--group',
      '-C',
      '--close-from',
      '-D',
      '--chdir',
      '-h',
      '--host',
      '-p',
      '--prompt',
      '-r',
      '--role',
      '-t',
      '--type',
      '-T',
      '--command-timeout',
      '-U',
      '--other-user',
      '-R',
      '--chroot',
    ],
  },
  doas: { flags: ['-n', '-s'], valued: ['-u', '-C'] },
};

/**
 * The command a wrapper chain runs.
 *
 * @example
 * const inner: Unwrapped = { name: rmWord, args, wrappers: ['sudo'], wrapperOptions: [['-u']], assignments: [] };
 */
export interface Unwrapped {
  readonly name: ShellWord;
  readonly args: readonly ShellWord[];
  readonly wrappers: readonly string[];
  /** The option names each wrapper was given, in the order of `wrappers`. */
  readonly wrapperOptions: readonly (readonly string[])[];
  readonly assignments: readonly ShellAssignment[];
  /** Why unwrapping stopped at a wrapper (the wrapper is then the command judged). */
  readonly problem?: string;
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

/**
 * The last path segment of a command word (`/usr/bin/env` is `env`).
 *
 * @example
 * commandBaseName('/bin/rm'); // 'rm'
 */
export function commandBaseName(program: string): string {
  return program.slice(program.lastIndexOf('/') + 1);
}

/**
 * Remove known wrappers from the front of a command (`sudo env FOO=1 timeout 5 rm -rf x` runs
 * `rm -rf x`). Stops at a wrapper option it does not know, at `command -v`, at a word computed at
 * run time, and when the wrapper has no command after its options.
 *
 * @example
 * unwrapCommand(word('nice'), words('-n 5 rm -rf x')).wrappers; // ['nice']
 */
export function unwrapCommand(name: ShellWord, args: readonly ShellWord[]): Unwrapped {
  let current: Unwrapped = { name, args, wrappers: [], wrapperOptions: [], assignments: [] };
  for (;;) {
    const program = current.name.value;
    const base = program === null ? null : commandBaseName(program);
    const spec = base === null ? undefined : ownEntry(COMMAND_WRAPPERS, base);
    if (base === null || spec === undefined) return current;
    const scan = scanLeadingOptions(current.args, {
      flags: [...(spec.flags ?? []), ...(spec.lookups ?? [])],
      valued: [...(spec.valued ?? []), ...(spec.opaque ?? [])],
      numeric: spec.numeric ?? false,
    });
    if (scan.unknown !== undefined) {
      return {
        ...current,
        problem: `\`${base}\` has an option the analysis does not know (\`${scan.unknown}\`)`,
      };
    }
    if (scan.options.some((option) => spec.lookups?.includes(option.name))) return current;
    const opaque = scan.options.find((option) => spec.opaque?.includes(option.name));
    if (opaque !== undefined) {
      return {
        ...current,
        problem: `\`${base} ${opaque.name}\` splits a string into a command the analysis cannot follow`,
      };
    }
    let rest = scan.rest;
    const assignments = [...current.assignments];
    while (spec.assignments === true && rest < current.args.length) {
      const word = current.args[rest] as ShellWord;
      // `env X=$(…) cmd`: the prefix still shows an assignment, only its value is unknown.
      const match = ASSIGNMENT.exec(word.value ?? word.prefix);
      if (match === null) break;
      const value = word.value === null ? null : (match[2] as string);
      assignments.push({ name: match[1] as string, value, text: word.text });
      rest += 1;
    }
    rest += spec.leadingOperands ?? 0;
    const inner = current.args[rest];
    if (inner === undefined) return current;
    current = {
      name: inner,
      args: current.args.slice(rest + 1),
      wrappers: [...current.wrappers, base],
      wrapperOptions: [...current.wrapperOptions, scan.options.map((option) => option.name)],
      assignments,
    };
  }
}
