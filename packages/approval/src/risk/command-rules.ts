import type { BashScene, CommandRule, Voice } from './bash-scene.js';
import { type ArgumentSyntax, parseArguments } from './options/argument-syntax.js';
import { optionTable } from './options/option-table.js';
import { readFindings } from './path-findings.js';
import { recursiveDeleteFindings } from './recursive-delete.js';
import type { RiskFinding } from './risk-verdict.js';
import { commandBaseName } from './shell/command-wrappers.js';
import { splitArguments } from './shell/option-scan.js';
import { ownEntry } from './shell/own-entry.js';
import { SHELL_DIALECTS, shellInvocation } from './shell/shell-payloads.js';
import { literalWord, type ShellWord } from './shell/shell-word.js';
import type { SimpleCommand } from './shell/simple-command.js';
import { FIND_EXEC_ORIGIN } from './shell/walk-state.js';
import { locate } from './workspace-paths.js';

/**
 * Commands that always need approval, with the reason shown to the person asked.
 *
 * @example
 * APPROVAL_REASONS.kill; // 'stops processes'
 */
export const APPROVAL_REASONS: Readonly<Record<string, string>> = {
  rmdir: 'removes directories',
  unlink: 'deletes a file',
  shred: 'overwrites and deletes files',
  sudo: 'runs commands as another user',
  doas: 'runs commands as another user',
  su: 'runs commands as another user',
  runuser: 'runs commands as another user',
  pkexec: 'runs commands as another user',
  chmod: 'changes file permissions',
  chown: 'changes file ownership',
  chgrp: 'changes file ownership',
  chattr: 'changes file attributes',
  setfacl: 'changes file permissions',
  kill: 'stops processes',
  killall: 'stops processes',
  pkill: 'stops processes',
  dd: 'copies raw data, which can overwrite whole disks',
  mkfs: 'formats a file system',
  mkswap: 'formats a swap area',
  fdisk: 'changes disk partitions',
  parted: 'changes disk partitions',
  wipefs: 'erases file-system signatures',
  mount: 'mounts file systems',
  umount: 'unmounts file systems',
  curl: 'uses the network',
  wget: 'uses the network',
  nc: 'uses the network',
  ncat: 'uses the network',
  netcat: 'uses the network',
  socat: 'uses the network',
  telnet: 'uses the network',
  ssh: 'uses the network',
  scp: 'uses the network',
  sftp: 'uses the network',
  ftp: 'uses the network',
  rsync: 'copies files, possibly over the network',
  source: 'runs a script in the current shell',
  '.': 'runs a script in the current shell',
  alias: 'defines an alias, which changes what a later command runs',
  unalias: 'removes an alias',
  trap: 'sets a trap, which runs commands later',
  set: 'changes shell options or prints shell variables',
  shopt: 'changes shell options',
  enable: 'turns shell builtins on or off',
  hash: 'changes which program a command name runs',
  ulimit: 'changes resource limits',
  umask: 'changes the permissions of new files',
  export: 'exports variables that later commands read',
  declare: 'changes shell variables that later commands read',
  typeset: 'changes shell variables that later commands read',
  local: 'changes shell variables that later commands read',
  readonly: 'changes shell variables that later commands read',
  unset: 'removes shell variables or functions',
  let: 'evaluates arithmetic, which can run commands hidden in variables',
  read: 'sets shell variables from its input',
  mapfile: 'sets shell variables from its input',
  readarray: 'sets shell variables from its input',
  printenv: 'prints environment variables, which may hold secrets',
  env: 'prints environment variables, which may hold secrets',
  xargs: 'runs a command with arguments read from its input',
  awk: 'runs an awk program, which can run commands with system()',
  gawk: 'runs an awk program, which can run commands with system()',
  mawk: 'runs an awk program, which can run commands with system()',
  nawk: 'runs an awk program, which can run commands with system()',
  make: 'runs build recipes, which can run any command',
  cmake: 'runs build steps, which can run any command',
  ninja: 'runs build steps, which can run any command',
  just: 'runs project recipes, which can run any command',
  rake: 'runs project tasks, which can run any code',
  gradle: 'runs build scripts, which can run any code',
  mvn: 'runs build plugins, which can run any code',
  npm: 'runs package scripts or installs packages, which can run any code',
  npx: 'downloads and runs packages',
  pnpm: 'runs package scripts or installs packages, which can run any code',
  pnpx: 'downloads and runs packages',
  yarn: 'runs package scripts or installs packages, which can run any code',
  bunx: 'downloads and runs packages',
  corepack: 'downloads and runs package managers',
  pip: 'installs packages, which can run their setup code',
  uv: 'runs or installs Python packages, which can run any code',
  uvx: 'downloads and runs packages',
  poetry: 'runs or installs Python packages, which can run any code',
  cargo: 'builds or runs Rust code, whose build scripts can run any code',
  go: 'builds or runs Go code (go generate runs commands)',
  cp: 'copies files',
  mv: 'moves files',
  install: 'copies files and sets their permissions',
  ln: 'creates links',
  touch: 'creates or changes files',
  mkdir: 'creates directories',
  tee: 'writes files',
  truncate: 'changes the size of files',
  patch: 'changes files',
  tar: 'archives or extracts files, and can run programs (--checkpoint-action)',
  crontab: 'schedules commands',
  at: 'schedules commands',
  systemctl: 'manages system services',
  service: 'manages system services',
  docker: 'controls containers',
  podman: 'controls containers',
  kubectl: 'controls a cluster',
};

/**
 * Interpreters: any run of them runs code, so all need approval; inline code gets its own reason.
 *
 * @example
 * INTERPRETERS.python?.inline; // ['-c']
 */
export const INTERPRETERS: Readonly<
  Record<string, { readonly language: string; readonly inline: readonly string[] }>
> = {
  python: { language: 'Python', inline: ['-c'] },
  pypy: { language: 'Python', inline: ['-c'] },
  node: { language: 'JavaScript', inline: ['-e', '--eval', '-p', '--print'] },
  nodejs: { language: 'JavaScript', inline: ['-e', '--eval', '-p', '--print'] },
  bun: { language: 'JavaScript', inline: ['-e', '--eval', '-p', '--print'] },
  deno: { language: 'JavaScript', inline: ['eval'] },
  tsx: { language: 'TypeScript', inline: ['-e', '--eval', '-p', '--print'] },
  'ts-node': { language: 'TypeScript', inline: ['-e', '--eval', '-p', '--print'] },
  perl: { language: 'Perl', inline: ['-e', '-E'] },
  ruby: { language: 'Ruby', inline: ['-e'] },
  php: { language: 'PHP', inline: ['-r'] },
  lua: { language: 'Lua', inline: ['-e'] },
  luajit: { language: 'Lua', inline: ['-e'] },
  Rscript: { language: 'R', inline: ['-e'] },
  R: { language: 'R', inline: ['-e'] },
  osascript: { language: 'AppleScript', inline: ['-e'] },
  pwsh: { language: 'PowerShell', inline: ['-c', '-Command', '-EncodedCommand'] },
  powershell: { language: 'PowerShell', inline: ['-c', '-Command', '-EncodedCommand'] },
  tclsh: { language: 'Tcl', inline: [] },
  groovy: { language: 'Groovy', inline: ['-e'] },
};

const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https']);

/**
 * A command's name as the rule tables spell it: `python3.12` is `python`, `mkfs.ext4` is `mkfs`,
 * `pip3` is `pip`.
 *
 * @example
 * ruleName('/usr/bin/python3'); // 'python'
 */
export function ruleName(program: string): string {
  const base = commandBaseName(program);
  if (/^python[\d.]*$/.test(base)) return 'python';
  if (/^pypy[\d.]*$/.test(base)) return 'pypy';
  if (/^pip[\d.]*$/.test(base)) return 'pip';
  if (base.startsWith('mkfs.')) return 'mkfs';
  return base;
}

// A shell or interpreter reading its code from standard input: worst when that input is a download.
function stdinCode(
  command: SimpleCommand,
  scene: BashScene,
  voice: Voice,
  runner: string,
): RiskFinding {
  const pipeline = command.pipeline;
  if (pipeline === null || pipeline.stage === 0)
    return voice.ask(`starts ${runner}, which reads code from its input`);
  const downloads = scene.commands.some(
    (other) =>
      other.pipeline?.id === pipeline.id &&
      other.pipeline.stage < pipeline.stage &&
      other.program !== null &&
      DOWNLOADERS.has(commandBaseName(other.program)),
  );
  return downloads
    ? voice.ask(`downloads a script and pipes it into ${runner}`)
    : voice.ask(`pipes data into ${runner}, which runs it as code`);
}

const judgeShell: CommandRule = (command, scene, voice) => {
  const base = ruleName(command.program ?? '');
  const invocation = shellInvocation(command.args, command.redirects);
  const differs =
    ownEntry(SHELL_DIALECTS, base) === 'other'
      ? [voice.ask(`reads ${base} code with bash rules, which may differ`)]
      : [];
  switch (invocation.mode) {
    case 'unknown_option':
      return [
        voice.ask(
          `runs a shell with an option the analysis does not follow (${invocation.option})`,
        ),
      ];
    case 'inline':
      return invocation.payload === null
        ? [voice.ask('runs a shell payload that cannot be analysed')]
        : differs;
    case 'script':
      return [voice.ask(`runs a shell script (${invocation.script.text})`)];
    default:
      return invocation.payload === null ? [stdinCode(command, scene, voice, base)] : differs;
  }
};

// Whether `arg` turns on one of an interpreter's inline-code flags: `-c` alone, attached
// (`-cprint(1)`) or in a cluster of flags (`python -Ic`, `perl -wle`, `node -pe`), and a long
// flag alone or with its value attached (`node --eval=…`). Interpreters take no abbreviations.
function inlineFlag(arg: string, flag: string): boolean {
  if (arg === flag) return true;
  if (flag.startsWith('--')) return arg.startsWith(`${flag}=`);
  if (!/^-[A-Za-z]$/.test(flag)) return false;
  return /^-[A-Za-z]/.test(arg) && arg.includes(flag.slice(1));
}

const judgeInterpreter: CommandRule = (command, scene, voice) => {
  const base = ruleName(command.program ?? '');
  const spec = ownEntry(INTERPRETERS, base);
  if (spec === undefined) return [];
  const inline = command.args.some((arg) =>
    spec.inline.some((flag) => arg.value !== null && inlineFlag(arg.value, flag)),
  );
  if (inline) return [voice.ask(`runs inline ${spec.language} code`)];
  const script = splitArguments(command.args).operands[0];
  if (script === undefined) return [stdinCode(command, scene, voice, base)];
  return [voice.ask(`runs ${spec.language} code`)];
};

// rm's options as GNU rm 9.1 reads them, so `rm --rec` is the recursive delete it is.
const RM_SYNTAX: ArgumentSyntax = {
  kind: 'getopt',
  table: optionTable([
    '-d --dir',
    '-f --force',
    '-i',
    '-I',
    '--interactive[=]',
    '--no-preserve-root',
    '--one-file-system',
    '--preserve-root[=]',
    '-r -R --recursive',
    '-v --verbose',
    '---presume-input-tty',
    '--help',
    '--version',
  ]),
};

// A recursive delete asks inside the workdir and is refused where it reaches more (see
// recursiveDeleteFindings); a plain rm asks, its operands judged as writes.
// Under `xargs` or `find -exec` the paths come from input or `{}`, known only at run time.
const judgeRm: CommandRule = (command, scene, voice) => {
  const parsed = parseArguments('rm', RM_SYNTAX, command.args);
  const unresolvable = parsed.problems.map((problem) => voice.ask(problem));
  if (!parsed.options.some((option) => option.def.id === '-r'))
    return [voice.ask('deletes files'), ...unresolvable];
  const fed = command.wrappers.includes('xargs') || command.origin.includes(FIND_EXEC_ORIGIN);
  if (fed) return [voice.refuse('deletes recursively paths supplied at run time'), ...unresolvable];
  return [...recursiveDeleteFindings(parsed.operands, scene, voice), ...unresolvable];
};

const judgeEval: CommandRule = (command, _scene, voice) =>
  command.payloads.some((payload) => payload.text === null)
    ? [voice.ask('evaluates text that is only known at run time')]
    : [];

const judgeCd: CommandRule = (command, scene, voice) => {
  const target = splitArguments(command.args).operands[0];
  if (target === undefined)
    return [voice.ask('changes to the home directory, outside the workdir')];
  if (target.value === '-') return [voice.ask('changes back to the previous directory')];
  if (target.value === null) return [voice.ask('changes to a directory computed at run time')];
  const places = locate(target, [scene.cwd], scene.paths).map((location) => location.place);
  if (places.some((place) => place === 'protected'))
    return [voice.ask('changes into a protected path')];
  return places.every((place) => place === 'inside' || place === 'git')
    ? []
    : [voice.ask('changes directory outside the workdir')];
};

const FIND_ACTIONS: Readonly<Record<string, string>> = {
  '-delete': 'deletes what it finds (find -delete)',
  '-exec': 'runs a command on what it finds (find -exec)',
  '-execdir': 'runs a command on what it finds (find -execdir)',
  '-ok': 'runs a command on what it finds (find -ok)',
  '-okdir': 'runs a command on what it finds (find -okdir)',
  '-fprint': 'writes its results to a file (find -fprint)',
  '-fprint0': 'writes its results to a file (find -fprint0)',
  '-fprintf': 'writes its results to a file (find -fprintf)',
  '-fls': 'writes its results to a file (find -fls)',
  '-files0-from':
    'reads the starting points from a file, which the analysis cannot check (find -files0-from)',
};

// The words find reads before its starting points, by exact spelling: -H, -L, -P, -D with the
// next word, -O with a level attached, and `--` ending them. How many there are at the start.
function findLeadingOptions(args: readonly ShellWord[]): number {
  let index = 0;
  while (index < args.length) {
    const value = args[index]?.value ?? null;
    if (value === '-H' || value === '-L' || value === '-P' || /^-O\d*$/.test(value ?? ''))
      index += 1;
    else if (value === '-D') index += 2;
    else return value === '--' ? index + 1 : index;
  }
  return index;
}

const FIND_FOLLOWS =
  'follows symbolic links while walking directories, which may lead outside the workdir (find -L)';

const judgeFind: CommandRule = (command, scene, voice) => {
  const leading = findLeadingOptions(command.args);
  const rest = command.args.slice(leading);
  const start = rest.findIndex((arg) => arg.value === null || /^[-(!)]/.test(arg.value));
  const roots = rest.slice(0, start < 0 ? rest.length : start);
  const expression = rest.slice(roots.length);
  const findings = [
    ...new Set(
      expression.flatMap((arg) => {
        const action = arg.value === null ? undefined : ownEntry(FIND_ACTIONS, arg.value);
        return action === undefined ? [] : [action];
      }),
    ),
  ].map((reason) => voice.ask(reason));
  if (command.args.slice(0, leading).some((arg) => arg.value === '-L'))
    findings.push(voice.ask(FIND_FOLLOWS));
  if (expression.some((arg) => arg.value === null))
    findings.push(voice.ask('has find arguments computed at run time'));
  // -delete removes everything below each starting point: judged like `rm -r` of them.
  if (expression.some((arg) => arg.value === '-delete'))
    findings.push(
      ...recursiveDeleteFindings(roots.length > 0 ? roots : [literalWord('.')], scene, voice),
    );
  return [...findings, ...roots.flatMap((root) => readFindings(root, scene, 'names'))];
};

// `read` only sets the variables it names. A lower-case name is none that bash or a program it
// runs reads for itself (those are upper case: PATH, IFS, BASH_ENV, LD_PRELOAD, GIT_DIR …), and
// a later use of the variable is judged as a word computed at run time.
const PLAIN_VARIABLE = /^[a-z][a-z0-9_]*$/;
const READ_FLAGS = new Set(['r', 's', 'e']);
const READ_VALUED = new Set(['a', 'd', 'n', 'N', 'p', 't', 'u', 'i']);

const judgeRead: CommandRule = (command, _scene, voice) => {
  const refused = [voice.ask(APPROVAL_REASONS.read as string)];
  const words = command.args.map((word) => word.value);
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index];
    if (word === null || word === undefined) return refused;
    if (!word.startsWith('-') || word === '-') {
      if (!PLAIN_VARIABLE.test(word)) return refused;
      continue;
    }
    if (word === '--') {
      if (!words.slice(index + 1).every((rest) => rest !== null && PLAIN_VARIABLE.test(rest)))
        return refused;
      break;
    }
    for (let at = 1; at < word.length; at += 1) {
      const flag = word[at] as string;
      if (READ_FLAGS.has(flag)) continue;
      if (!READ_VALUED.has(flag)) return refused;
      const inline = word.slice(at + 1);
      const value = inline === '' ? words[++index] : inline;
      if (value === null || value === undefined) return refused;
      if (flag === 'a' && !PLAIN_VARIABLE.test(value)) return refused;
      break;
    }
  }
  return [];
};

/**
 * Rules for commands that need more than a fixed reason (and may deny).
 *
 * @example
 * COMMAND_RULES.rm?.(command, scene, voice);
 */
export const COMMAND_RULES: Readonly<Record<string, CommandRule>> = {
  rm: judgeRm,
  eval: judgeEval,
  cd: judgeCd,
  pushd: judgeCd,
  find: judgeFind,
  read: judgeRead,
  ...Object.fromEntries(Object.keys(SHELL_DIALECTS).map((shell) => [shell, judgeShell])),
  ...Object.fromEntries(
    Object.keys(INTERPRETERS).map((interpreter) => [interpreter, judgeInterpreter]),
  ),
};

const DEPLOY_WORD = /(^|[^a-z])(deploy|publish|release)([^a-z]|$)/i;

/**
 * Whether a command looks like a deploy, publish or release step (by its name or first words).
 *
 * @example
 * looksLikeRelease(npmPublishCommand); // true
 */
export function looksLikeRelease(command: SimpleCommand): boolean {
  const words = [command.program ?? '', ...command.args.slice(0, 3).map((arg) => arg.value ?? '')];
  return words.some((word) => DEPLOY_WORD.test(word));
}
