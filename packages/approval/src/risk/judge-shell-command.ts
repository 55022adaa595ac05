import { dirname } from 'node:path';
import type { BashScene, Voice } from './bash-scene.js';
import { APPROVAL_REASONS, COMMAND_RULES, looksLikeRelease, ruleName } from './command-rules.js';
import { judgeGit } from './git-rules.js';
import { harnessCommandFindings } from './harness-commands.js';
import { readFindings, writeFindings } from './path-findings.js';
import { READ_ONLY_COMMANDS, type ReadOnlySpec } from './read-only-commands.js';
import { readOnlyCommandFindings } from './read-only-findings.js';
import { approval, deny, type RiskFinding } from './risk-verdict.js';
import { escapeInvisible } from './shell/invisible-characters.js';
import { ownEntry } from './shell/own-entry.js';
import type { ShellWord } from './shell/shell-word.js';
import type { SimpleCommand } from './shell/simple-command.js';
import { snippet } from './shell/snippet.js';
import { WRITE_TARGETS } from './write-targets.js';
import { xargsFeedFindings } from './xargs-feed.js';

// A program named by path is the system's own only in these directories (`./ls` is not `ls`).
const SYSTEM_DIRECTORIES = new Set([
  '/bin',
  '/usr/bin',
  '/usr/local/bin',
  '/sbin',
  '/usr/sbin',
  '/opt/homebrew/bin',
]);

// Wrappers that are a concern of their own, whatever they wrap.
const WRAPPER_CONCERNS: Readonly<Record<string, string>> = {
  sudo: 'runs commands as another user (sudo)',
  doas: 'runs commands as another user (doas)',
  xargs: 'runs a command with arguments read from its input (xargs)',
};

function voiceFor(command: SimpleCommand): Voice {
  const label = `\`${snippet(command.text)}\``;
  return {
    ask: (what) => approval(`${escapeInvisible(what)} (${label})`),
    refuse: (what) => deny(`${escapeInvisible(what)} (${label})`),
  };
}

function readOnlyFindings(
  spec: ReadOnlySpec,
  args: readonly ShellWord[],
  scene: BashScene,
  voice: Voice,
): RiskFinding[] {
  return readOnlyCommandFindings(spec, args, scene, voice);
}

function gitFindings(
  command: SimpleCommand,
  scene: BashScene,
  voice: Voice,
): { findings: RiskFinding[]; readOnly: boolean } {
  const judged = judgeGit(command.args);
  const findings = judged.concerns.map((concern) => voice.ask(concern));
  for (const directory of judged.workTree) {
    const outside = readFindings(directory, scene, 'names').length > 0 || directory.value === null;
    if (outside) findings.push(voice.ask('runs git on a directory outside the workdir (git -C)'));
  }
  if (judged.readOnly === null) return { findings, readOnly: false };
  return {
    findings: [
      ...findings,
      ...readOnlyFindings(judged.readOnly.spec, judged.readOnly.args, scene, voice),
    ],
    readOnly: true,
  };
}

// What the command's name alone says: read-only (then checked), a rule, a fixed reason, or unknown.
function nameFindings(
  command: SimpleCommand,
  name: string,
  trusted: boolean,
  scene: BashScene,
  voice: Voice,
): RiskFinding[] {
  const harness = harnessCommandFindings(command, voice);
  if (harness.length > 0) return harness;
  const readOnly = ownEntry(READ_ONLY_COMMANDS, name);
  if (readOnly !== undefined && trusted)
    return readOnlyFindings(readOnly, command.args, scene, voice);
  let findings: RiskFinding[];
  let allowed = false;
  if (name === 'git') {
    const judged = gitFindings(command, scene, voice);
    findings = judged.findings;
    allowed = judged.readOnly && trusted;
  } else {
    const rule = ownEntry(COMMAND_RULES, name);
    const reason = ownEntry(APPROVAL_REASONS, name);
    if (rule !== undefined) findings = rule(command, scene, voice);
    else if (reason !== undefined) findings = [voice.ask(reason)];
    // A program run by path already asks; naming it again as unknown would only repeat that.
    else
      findings = trusted ? [voice.ask(`\`${name}\` is not on the list of read-only commands`)] : [];
    allowed = rule !== undefined && findings.length === 0;
  }
  if (!allowed && looksLikeRelease(command))
    findings.push(voice.ask('looks like a deploy, publish or release step'));
  return findings;
}

/**
 * Judge one simple command: its environment prefixes, wrappers, name, options and the paths it
 * reads and writes. Redirections are judged separately, once each.
 *
 * @example
 * judgeShellCommand(rmRfCommand, scene); // [deny('deletes files recursively (`rm -rf x`)')]
 */
export function judgeShellCommand(command: SimpleCommand, scene: BashScene): RiskFinding[] {
  const voice = voiceFor(command);
  if (command.kind === 'assignment')
    return [voice.ask('sets a shell variable that later commands read')];
  if (command.kind === 'redirection') return [];
  const findings: RiskFinding[] = [];
  // `IFS= read -r line`, the usual way to read lines whole: IFS set for the builtin alone only
  // changes how it splits what it reads.
  const readSplitting =
    command.program === 'read' &&
    command.wrappers.length === 0 &&
    command.assignments.every(
      (assignment) => assignment.name === 'IFS' && assignment.value !== null,
    );
  if (command.assignments.length > 0 && !readSplitting) {
    const names = [...new Set(command.assignments.map((assignment) => assignment.name))].join(', ');
    findings.push(voice.ask(`runs a command with environment variables set (${names})`));
  }
  // xargs feeding a read-only command the names a listing stage printed is judged by what those
  // names can do to it (see xargs-feed); any other xargs asks.
  const fed =
    command.wrappers[0] === 'xargs'
      ? xargsFeedFindings(command, scene, voice, (other) => judgeShellCommand(other, scene))
      : null;
  for (const wrapper of command.wrappers) {
    const concern = ownEntry(WRAPPER_CONCERNS, wrapper);
    if (wrapper === 'xargs' && fed !== null) findings.push(...fed);
    else if (concern !== undefined) findings.push(voice.ask(concern));
  }
  if (command.unwrapProblem !== undefined) return [...findings, voice.ask(command.unwrapProblem)];
  if (command.program === null) {
    return [
      ...findings,
      voice.ask('names its command with an expansion, so it cannot be checked before it runs'),
    ];
  }
  const name = ruleName(command.program);
  const byPath = command.program.includes('/');
  const trusted = !byPath || SYSTEM_DIRECTORIES.has(dirname(command.program));
  if (!trusted) findings.push(voice.ask('runs a program by its path'));
  findings.push(...nameFindings(command, name, trusted, scene, voice));
  const targets = ownEntry(WRITE_TARGETS, name)?.(command.args) ?? [];
  for (const target of targets) findings.push(...writeFindings(target, scene, null));
  return findings;
}
