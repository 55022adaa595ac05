/**
 * Handing the seccomp filter to bubblewrap. Bubblewrap reads the program from a descriptor named
 * in its arguments (`--seccomp FD`) and closes it once read, before anything of the command
 * runs. The bash tool spawns bubblewrap with stdin, stdout, stderr and its report pipe only, so a
 * short bash in front of it opens that descriptor: a pipe its `printf` builtin writes the program
 * into (so no file holding the filter exists that a command could replace), then `exec`s
 * bubblewrap, which keeps the pid the harness spawned.
 *
 * That bash runs outside the sandbox, so it is started privileged (`-p`): it reads no
 * `$BASH_ENV` file (which may lie in the writable workdir) and imports no shell functions. In
 * that mode it rewrites `SHELLOPTS`, `BASHOPTS` and `PS4` when they are exported, so bubblewrap
 * puts their values back for the command ({@link variablesBashRewrites}).
 */

/** The descriptor the filter travels on: clear of stdio and of the report pipe (3). */
export const SECCOMP_FD = 5;

const SCRIPT = `exec ${SECCOMP_FD}< <(printf "$1"); exec "$0" "\${@:2}"`;

const REWRITTEN = ['SHELLOPTS', 'BASHOPTS', 'PS4'] as const;

/** `program` as a printf format that writes exactly its bytes. */
function printfFormat(program: Uint8Array): string {
  return Array.from(program, (byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('');
}

/**
 * The launcher that starts `bwrap bwrapArgs… <command>` with `program` readable on
 * {@link SECCOMP_FD}. `bwrapArgs` must name that descriptor (`--seccomp 5`); the command's
 * arguments follow them.
 *
 * @example
 * const launcher = filteredLauncher('/usr/bin/bash', '/usr/bin/bwrap', args, unixSocketFilter('x64'));
 * spawn(launcher.command, [...launcher.args, 'true']);
 */
export function filteredLauncher(
  bash: string,
  bwrap: string,
  bwrapArgs: readonly string[],
  program: Uint8Array,
): { command: string; args: string[] } {
  return { command: bash, args: ['-p', '-c', SCRIPT, bwrap, printfFormat(program), ...bwrapArgs] };
}

/**
 * The variables of `env` that the privileged launcher bash rewrites, with their values, for
 * bubblewrap to set again (`--setenv`).
 *
 * @example
 * variablesBashRewrites({ PS4: '$ ', HOME: '/home/me' }); // { PS4: '$ ' }
 */
export function variablesBashRewrites(env: NodeJS.ProcessEnv): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of REWRITTEN) {
    const value = env[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}
