import { readdirSync } from 'node:fs';
import type { BashScene, Voice } from './bash-scene.js';
import { parseArguments } from './options/argument-syntax.js';
import type { ParsedOption } from './options/parsed-arguments.js';
import { readFindings, writeFindings } from './path-findings.js';
import type { ReadOnlySpec } from './read-only-commands.js';
import type { RiskFinding } from './risk-verdict.js';
import { globSegmentMatches } from './shell/glob-segment.js';
import type { ShellWord } from './shell/shell-word.js';

function valueWord(option: ParsedOption): ShellWord {
  return option.value ?? { text: option.spelled, value: null, prefix: '', expands: false };
}

// What one option found on the command line adds, by its rule in the program's table.
function optionFindings(option: ParsedOption, scene: BashScene, voice: Voice): RiskFinding[] {
  const rule = option.def.rule;
  const findings: RiskFinding[] = [];
  if (rule.ask !== undefined) findings.push(voice.ask(rule.ask));
  if (rule.writes !== undefined) {
    findings.push(voice.ask(rule.writes));
    findings.push(...writeFindings(valueWord(option), scene, null));
  }
  if (rule.askWhen?.test(option.value?.value ?? null) === true)
    findings.push(voice.ask(rule.askWhen.reason));
  if (rule.reads === true) findings.push(...readFindings(valueWord(option), scene, 'contents'));
  return findings;
}

/** Names starting with `-` in `dir`, or none when it cannot be listed. */
function dashNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.startsWith('-'));
  } catch {
    return [];
  }
}

/**
 * A glob the shell expands before the program starts can turn into a word that starts with `-`
 * (`wc -l *` with a file named `--files0-from=list`), which the program then reads as an option
 * nobody wrote. Only a word whose first character is a glob character can, and only through a
 * name in a directory the command may start in; the directory is listed, so `wc -l *.ts` asks only
 * when such a file is really there. Words after `--` are operands whatever they look like.
 */
function globOptionFindings(
  program: string,
  args: readonly ShellWord[],
  scene: BashScene,
  voice: Voice,
): RiskFinding[] {
  const end = args.findIndex((arg) => arg.value === '--');
  const globs = (end < 0 ? args : args.slice(0, end)).filter(
    (arg) => arg.expands && arg.value !== null && /^[*?[]/.test(arg.value),
  );
  if (globs.length === 0) return [];
  const names = [...new Set(scene.bases.flatMap(dashNames))];
  return globs.flatMap((glob) => {
    const first = (glob.value as string).split('/')[0] as string;
    const matched = names.find((name) => globSegmentMatches(first, name));
    return matched === undefined
      ? []
      : [
          voice.ask(
            `its glob ${glob.text} matches a file named ${JSON.stringify(matched)}, which ${program} would read as an option`,
          ),
        ];
  });
}

/**
 * Judge a command on the read-only list: its words split the way the program splits them, every
 * option the analysis cannot resolve, every option that is not harmless, the files its options
 * and operands read, and any file this use writes.
 *
 * @example
 * readOnlyCommandFindings(READ_ONLY_COMMANDS.sort, words('--outp=x in'), scene, voice);
 * // [approval('writes its output to a file (sort -o) (`sort --outp=x in`)')]
 */
export function readOnlyCommandFindings(
  spec: ReadOnlySpec,
  args: readonly ShellWord[],
  scene: BashScene,
  voice: Voice,
): RiskFinding[] {
  const parsed = parseArguments(spec.program, spec.syntax, args);
  const findings = parsed.problems.map((problem) => voice.ask(problem));
  findings.push(...globOptionFindings(spec.program, args, scene, voice));
  const veto = spec.veto?.(parsed, args) ?? null;
  if (veto !== null) findings.push(voice.ask(veto));
  for (const option of parsed.options) findings.push(...optionFindings(option, scene, voice));
  for (const target of spec.writes?.(parsed) ?? [])
    findings.push(...writeFindings(target, scene, null));
  if (spec.operands === 'none') return findings;
  const patterned =
    spec.patternFirst === true && !parsed.options.some((option) => option.def.rule.pattern);
  const paths = patterned ? parsed.operands.slice(1) : parsed.operands;
  return [
    ...findings,
    ...paths.flatMap((path) => readFindings(path, scene, spec.operands as 'contents' | 'names')),
  ];
}
