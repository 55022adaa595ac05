import type { BashScene, Voice } from './bash-scene.js';
import { parseArguments } from './options/argument-syntax.js';
import type { ParsedOption } from './options/parsed-arguments.js';
import { readFindings, writeFindings } from './path-findings.js';
import type { ReadOnlySpec } from './read-only-commands.js';
import type { RiskFinding } from './risk-verdict.js';
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
