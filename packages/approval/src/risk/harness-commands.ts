import type { Voice } from './bash-scene.js';
import type { RiskFinding } from './risk-verdict.js';
import { commandBaseName } from './shell/command-wrappers.js';
import type { ShellWord } from './shell/shell-word.js';
import type { SimpleCommand } from './shell/simple-command.js';

// The agent must never decide its own approvals or widen what it trusts: with the sandbox off the
// state dir is reachable, so running the tiny-claw CLI for that is refused outright, not asked.
const ONLY_A_PERSON = 'only a person may do that, outside the agent';

/**
 * Why each refused tiny-claw invocation is refused, as shown to the person and the model.
 *
 * @example
 * HARNESS_REASONS.decides; // 'decides approvals (tiny-claw approvals approve|reject): only a person …'
 */
export const HARNESS_REASONS = {
  decides: `decides approvals (tiny-claw approvals approve|reject): ${ONLY_A_PERSON}`,
  trusts: `changes trusted folders (tiny-claw trust|untrust): ${ONLY_A_PERSON}`,
  computed: `runs tiny-claw with a subcommand known only at run time, which could decide approvals or change trusted folders: ${ONLY_A_PERSON}`,
} as const;

// The CLI by name, with or without a script extension: `tiny-claw`, `bin/tiny-claw.js`. The
// server (`tiny-claw-server`) takes no subcommands and is not matched.
const CLI_NAME = /^tiny-claw(?:\.[cm]?[jt]s)?$/i;
// The CLI as a package for a runner: `tiny-claw`, `tiny-claw@latest`, `npm:tiny-claw@1`.
const CLI_PACKAGE = /^(?:npm:)?tiny-claw(?:@[^\s/]*)?$/i;
// The CLI's files when a JavaScript runtime runs them: the repository's app, an installed
// package, or the one-file bundle.
const CLI_FILES = [
  /(?:^|\/)apps\/cli(?:\/|$)/i,
  /(?:^|\/)node_modules\/tiny-claw(?:\/|$)/i,
  /(?:^|\/)dist\/cli\.[cm]?js$/i,
];

// Programs that run a command or script named in their arguments. A quoted multi-word argument
// of one of these may itself be a command line (`npx -c '…'`, `watch '…'`) or code (`node -e`).
const LAUNCHERS = new Set([
  'npx',
  'pnpx',
  'bunx',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'corepack',
  'deno',
  'node',
  'nodejs',
  'tsx',
  'ts-node',
  'volta',
  'cross-env',
  'dotenv',
  'setsid',
  'watch',
  'script',
  'flock',
  'ionice',
  'chrt',
  'taskset',
  'unbuffer',
  'strace',
  'ltrace',
  'systemd-run',
  'parallel',
]);

// Inside such an argument: the CLI's name (a version may follow), then `approvals … approve|reject`,
// or `trust|untrust` as its next word, quoted or not (code may spell it `spawn('tiny-claw', ['trust'])`).
// Separators of a command list end the search.
const INLINE_NAME = String.raw`(?:^|[^\w-])tiny-claw(?:\.[cm]?[jt]s)?(?:@[^\s'"]*)?(?![\w-])`;
const INLINE_DECIDES = new RegExp(
  String.raw`${INLINE_NAME}[^;&|\n]*?\bapprovals\b[^;&|\n]*?\b(?:approve|reject)\b`,
  'i',
);
const INLINE_TRUSTS = new RegExp(
  String.raw`${INLINE_NAME}[\s'",()[\]]+(?:--env-file[=\s]\S+\s+)?['"]?(?:un)?trust\b`,
  'i',
);

// Options of the CLI (global or of `approvals`) that take the next word as their value.
const VALUED_OPTIONS = new Set(['--env-file', '--session', '--workdir', '--status']);

/** Whether a word names the tiny-claw CLI: its name, its package, or one of its files. */
function namesCli(value: string): boolean {
  if (CLI_NAME.test(commandBaseName(value)) || CLI_PACKAGE.test(value)) return true;
  return CLI_FILES.some((pattern) => pattern.test(value));
}

/** The first word that is neither an option nor an option's value: the (sub)command. */
function firstPositional(words: readonly ShellWord[]): ShellWord | undefined {
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] as ShellWord;
    if (word.value === null) return word;
    if (word.value === '--') continue;
    if (VALUED_OPTIONS.has(word.value)) {
      index += 1;
      continue;
    }
    if (word.value.startsWith('-')) continue;
    return word;
  }
  return undefined;
}

/** What the CLI would do with `argv` (the words after its name), when that is refused. */
function refusalFor(argv: readonly ShellWord[]): string | undefined {
  const command = firstPositional(argv);
  if (command === undefined) return undefined;
  if (command.value === null) return HARNESS_REASONS.computed;
  if (command.value === 'trust' || command.value === 'untrust') return HARNESS_REASONS.trusts;
  if (command.value !== 'approvals') return undefined;
  const rest = argv.slice(argv.indexOf(command) + 1);
  const sub = firstPositional(rest);
  if (sub?.value === null) return HARNESS_REASONS.computed;
  const decides = rest.some((word) => word.value === 'approve' || word.value === 'reject');
  return decides ? HARNESS_REASONS.decides : undefined;
}

function inlineRefusal(value: string): string | undefined {
  if (INLINE_DECIDES.test(value)) return HARNESS_REASONS.decides;
  if (INLINE_TRUSTS.test(value)) return HARNESS_REASONS.trusts;
  return undefined;
}

/**
 * Refuse a command that runs the tiny-claw CLI to decide an approval (`approvals approve|reject`)
 * or to change trusted folders (`trust`, `untrust`), however the CLI is reached: by name or path,
 * through a package runner (`npx -y tiny-claw@latest`, `pnpm exec`, `pnpm dlx`, `yarn`, `bunx`,
 * `npm exec`), or as a script a JavaScript runtime runs (`node apps/cli/bin/tiny-claw.js`,
 * `node …/dist/cli.cjs`). Environment prefixes and wrappers (`env`, `timeout`, `xargs`…) are
 * already unwrapped. Every other tiny-claw subcommand is left to the other rules (it asks).
 *
 * @example
 * harnessCommandFindings(command('npx tiny-claw approvals approve ap_x'), voice);
 * // [deny('decides approvals (tiny-claw approvals approve|reject): only a person … (`npx tiny-claw …`)')]
 */
export function harnessCommandFindings(command: SimpleCommand, voice: Voice): RiskFinding[] {
  if (command.program === null) return [];
  const program: ShellWord = {
    text: command.program,
    value: command.program,
    prefix: command.program,
    expands: false,
  };
  const words = [program, ...command.args];
  const reasons = new Set<string>();
  // Every place the CLI is named starts a possible command line: `npx -p tiny-claw tiny-claw …`
  // names it twice, and only the second is followed by the subcommand.
  words.forEach((word, index) => {
    if (word.value === null || !namesCli(word.value)) return;
    const reason = refusalFor(words.slice(index + 1));
    if (reason !== undefined) reasons.add(reason);
  });
  if (LAUNCHERS.has(commandBaseName(command.program))) {
    for (const word of command.args) {
      if (word.value === null || !/\s/.test(word.value)) continue;
      const reason = inlineRefusal(word.value);
      if (reason !== undefined) reasons.add(reason);
    }
  }
  return [...reasons].map((reason) => voice.refuse(reason));
}
