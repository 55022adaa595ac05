/**
 * Model-facing text of the `bash` tool, kept in one place for a future locale.
 *
 * @example
 * bashText.errors.cwdNotFound('src/missing'); // 'bash cwd does not exist: src/missing. …'
 */
export const bashText = {
  description: (
    defaultSeconds: number,
    maxSeconds: number,
    maxChars: number,
    confinement?: string,
  ): string =>
    [
      'Run a shell command with `bash -c` in the workdir (or `cwd`, a directory relative to it).',
      `It is killed after timeout_seconds (default ${defaultSeconds}, max ${maxSeconds}); the result`,
      'starts with exit_code=N (124 = timed out, 128+N = killed by signal N), then stdout: and',
      `stderr:. At most ${maxChars} characters come back (start and end of long output, with an`,
      'omitted-bytes marker). stdin is closed, so interactive prompts fail instead of waiting;',
      'background processes still running when the command ends are killed, so do not start',
      'servers with `&`. Secrets are removed from the environment.',
      ...(confinement === undefined ? [] : [confinement]),
      'Prefer the read/write/edit tools for files.',
    ].join(' '),
  sandboxDescription: (network: boolean): string =>
    'It runs in a sandbox: only the workdir and a private /tmp (emptied after each command) are writable, ' +
    `credentials and the agent's state are hidden${network ? '' : ', and there is no network access'}.`,
  stdoutLabel: 'stdout:',
  stderrLabel: 'stderr:',
  noOutput: '(no output)',
  omittedMarker: (bytes: number): string => `\n[... ${bytes} bytes omitted ...]\n`,
  commandDescription: 'The shell command to run (bash syntax). Must not be empty.',
  cwdDescription:
    'Directory to run in, relative to the workdir (default "."). Must exist and stay inside it.',
  timeoutDescription: (defaultSeconds: number, maxSeconds: number): string =>
    `Seconds before the command is killed: a whole number from 1 to ${maxSeconds} (default ${defaultSeconds}).`,
  notes: {
    timedOut: (seconds: number): string =>
      `note: the command timed out after ${seconds} s and its process group was stopped (SIGTERM, then SIGKILL). Output so far is shown.`,
    cancelled:
      'note: the run was cancelled while the command was running; its process group was stopped.',
    leftoversKilled:
      'note: background processes were still running after the command finished and were killed. Commands must finish on their own; do not leave servers or watchers running.',
    pipesAbandoned:
      'note: a process outside the command’s process group kept its output open; reading stopped after the command finished, so output may be incomplete.',
    signalHint: (code: number, signal: string): string =>
      `note: exit code ${code} usually means the process was killed by ${signal} (128+${code - 128}).`,
    gitGuardReasons: {
      repository_created: "a git repository created where git looks for this workdir's own",
      dot_git_replaced: "the workdir's .git replaced",
      control_file: 'git configuration, hooks or a redirect to another git directory',
      submodule_repository: "a repository in a submodule's place, which git status enters",
      hooks_path: 'the hooks directory git is configured to use',
      included_config: 'a configuration file git includes',
      bare_repository: 'the workdir turned into a bare git repository',
      rebase_exec: 'commands added to a paused rebase, run by git rebase --continue',
      hidden_created: "one of tiny-claw's own settings files, which commands may not write",
    },
    gitGuard: (lines: readonly string[]): string =>
      [
        'note: the command left git metadata that git would act on outside the sandbox the next time anyone runs git here (configuration, hooks, a repository of its own, or rebase commands). tiny-claw undid it:',
        ...lines.map((line) => `  - ${line}`),
        'The sandbox keeps git configuration, hooks and repository creation out of reach of commands. Do not try to work around it; if the task needs such a change, ask the user to make it.',
      ].join('\n'),
  },
  errors: {
    emptyCommand: 'bash tool requires a non-empty command',
    nulInCommand:
      'bash command contains a NUL byte, which cannot be passed to a process; remove it (use printf \\\\0 inside the command if you need one in the output)',
    commandTooLong: (bytes: number, max: number): string =>
      `bash command is ${bytes} bytes, over the ${max}-byte limit of one argument`,
    timeoutTooLarge: (max: number): string =>
      `timeout_seconds cannot exceed ${max} (${max / 60} minutes); split the work into shorter commands`,
    timeoutTooSmall: 'timeout_seconds must be at least 1',
    cwdNotFound: (cwd: string): string =>
      `bash cwd does not exist: ${cwd}. Use a directory relative to the workdir (list it with \`ls\`).`,
    cwdNotDirectory: (cwd: string): string =>
      `bash cwd is not a directory: ${cwd}. Pass the directory that contains it instead.`,
    cwdProtected: (cwd: string): string =>
      `protected path: bash cannot run inside ${cwd} (tiny-claw's state directory).`,
    cwdStat: (cwd: string, code: string): string => `bash cannot use cwd ${cwd}: ${code}`,
    spawnFailed: (message: string): string => `bash tool failed to start: ${message}`,
    sandboxFailed: (message: string): string =>
      `bash could not set up its sandbox, so the command did not run: ${message}`,
    cancelledBeforeStart: 'bash cancelled: the run was cancelled before the command started',
  },
} as const;
