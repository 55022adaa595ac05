import { commandBaseName } from './command-wrappers.js';
import { scanLeadingOptions } from './option-scan.js';
import { ownEntry } from './own-entry.js';
import type { ShellRedirect } from './shell-redirect.js';
import type { ShellWord } from './shell-word.js';
import type { ShellPayload } from './simple-command.js';

/**
 * Shells whose code the analysis reads with the bash grammar. `bash` and the POSIX shells parse
 * the same way for what matters here; `zsh` and the Korn shells are close but not the same, so
 * the policy asks about them even when their payload looks harmless.
 *
 * @example
 * SHELL_DIALECTS.dash; // 'posix'
 */
export const SHELL_DIALECTS: Readonly<Record<string, 'bash' | 'posix' | 'other'>> = {
  bash: 'bash',
  sh: 'posix',
  dash: 'posix',
  ash: 'posix',
  zsh: 'other',
  ksh: 'other',
  mksh: 'other',
};

/**
 * How a shell is asked to run code: `-c` with a string, a script file, or commands read from
 * standard input (a heredoc or here-string gives that input statically).
 *
 * @example
 * const invocation: ShellInvocation = { mode: 'inline', payload: 'rm -rf x' };
 */
export type ShellInvocation =
  | { readonly mode: 'inline'; readonly payload: string | null }
  | { readonly mode: 'script'; readonly script: ShellWord }
  | { readonly mode: 'stdin'; readonly payload: string | null }
  | { readonly mode: 'unknown_option'; readonly option: string };

const SHELL_OPTIONS = {
  flags: [
    ...'abcefhiklmnprstuvxBCEHPT'.split('').map((letter) => `-${letter}`),
    '--login',
    '--norc',
    '--noprofile',
    '--posix',
    '--restricted',
    '--verbose',
    '--noediting',
  ],
  valued: ['-o', '-O'],
};

/**
 * What a shell command line runs.
 *
 * @example
 * shellInvocation(words("-lc 'rm -rf x'"), []); // { mode: 'inline', payload: 'rm -rf x' }
 */
export function shellInvocation(
  args: readonly ShellWord[],
  redirects: readonly ShellRedirect[],
): ShellInvocation {
  const scan = scanLeadingOptions(args, SHELL_OPTIONS);
  if (scan.unknown !== undefined) return { mode: 'unknown_option', option: scan.unknown };
  const names = new Set(scan.options.map((option) => option.name));
  const first = args[scan.rest];
  if (names.has('-c')) return { mode: 'inline', payload: first?.value ?? null };
  if (first !== undefined && !names.has('-s')) return { mode: 'script', script: first };
  // The last input redirection wins, as in bash.
  const last = redirects.filter((redirect) => redirect.operator.startsWith('<')).at(-1);
  return { mode: 'stdin', payload: last?.input ?? null };
}

function evalPayload(args: readonly ShellWord[]): ShellPayload[] {
  if (args.length === 0) return [];
  const static_ = args.every((arg) => arg.value !== null);
  return [{ via: 'eval', text: static_ ? args.map((arg) => arg.value).join(' ') : null }];
}

function aliasPayloads(args: readonly ShellWord[]): ShellPayload[] {
  return args.flatMap((arg): ShellPayload[] => {
    const equals = (arg.value ?? arg.prefix).indexOf('=');
    if (equals < 0) return arg.value === null ? [{ via: 'alias', text: null }] : [];
    return [{ via: 'alias', text: arg.value === null ? null : arg.value.slice(equals + 1) }];
  });
}

function trapPayloads(args: readonly ShellWord[]): ShellPayload[] {
  const scan = scanLeadingOptions(args, { flags: ['-p', '-l'] });
  const operands = args.slice(scan.rest);
  // With one operand (or `-` first) trap resets signals; with two or more the first is the handler.
  if (operands.length < 2 || operands[0]?.value === '-') return [];
  return [{ via: 'trap', text: operands[0]?.value ?? null }];
}

/**
 * The shell code a command runs besides itself: a shell's `-c` string or static standard input,
 * `eval`'s words, alias values, trap handlers. A payload known only at run time has `text: null`.
 *
 * @example
 * payloadsOf('eval', words("'rm -rf x'"), []); // [{ via: 'eval', text: 'rm -rf x' }]
 */
export function payloadsOf(
  program: string,
  args: readonly ShellWord[],
  redirects: readonly ShellRedirect[],
): ShellPayload[] {
  const base = commandBaseName(program);
  if (ownEntry(SHELL_DIALECTS, base) !== undefined) {
    const invocation = shellInvocation(args, redirects);
    if (invocation.mode === 'inline') return [{ via: `${base} -c`, text: invocation.payload }];
    if (invocation.mode === 'stdin' && invocation.payload !== null) {
      return [{ via: `${base} standard input`, text: invocation.payload }];
    }
    return [];
  }
  if (base === 'eval') return evalPayload(args);
  if (base === 'alias') return aliasPayloads(args);
  if (base === 'trap') return trapPayloads(args);
  return [];
}

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * The commands `find` runs for `-exec`, `-execdir`, `-ok` and `-okdir` (up to `;` or `+`).
 *
 * @example
 * findExecCommands(words('. -exec rm {} ;')); // [[rm, {}]]
 */
export function findExecCommands(args: readonly ShellWord[]): ShellWord[][] {
  const commands: ShellWord[][] = [];
  for (let index = 0; index < args.length; index += 1) {
    if (!FIND_EXEC.has(args[index]?.value ?? '')) continue;
    const words: ShellWord[] = [];
    for (index += 1; index < args.length; index += 1) {
      const word = args[index] as ShellWord;
      if (word.value === ';' || word.value === '+') break;
      words.push(word);
    }
    if (words.length > 0) commands.push(words);
  }
  return commands;
}
