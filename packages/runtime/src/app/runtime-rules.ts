import { join } from 'node:path';
import {
  type AssessedCall,
  describeRule,
  describeSource,
  judgeCallWithRules,
  loadRuleSet,
  type PermissionRule,
  type PolicyJudgement,
  proposeRules,
  type RuleProposal,
  type RuleSet,
  type SourcedRule,
} from '@tiny-claw/approval';
import type { Logger } from '@tiny-claw/core';
import { sandboxStatus } from '@tiny-claw/tools';
import type { Settings } from '../settings/settings-schema.js';
import { isTrustedFolder } from '../settings/trusted-folders.js';
import { appendRulesFile } from './append-rules-file.js';
import { isMcpToolName } from './mcp-names.js';
import { runtimeSandbox } from './tool-factory.js';

/**
 * The user's kept permission rules: `rules.json` next to the user's settings file
 * (`$XDG_CONFIG_HOME/tiny-claw/rules.json`).
 *
 * @example
 * userRulesFile(settings); // '/home/me/.config/tiny-claw/rules.json'
 */
export function userRulesFile(settings: Pick<Settings, 'configDir'>): string {
  return join(settings.configDir, 'rules.json');
}

/**
 * A project's own rules file, `.claw/rules.json` in its workdir. It counts only when the workdir is
 * a trusted folder (`tiny-claw trust`), and then only its `ask` and `deny` rules.
 *
 * @example
 * projectRulesFile('/srv/app'); // '/srv/app/.claw/rules.json'
 */
export function projectRulesFile(workdir: string): string {
  return join(workdir, '.claw', 'rules.json');
}

/**
 * Read the rules in force for a workdir: the user's file, and the project's when the workdir is a
 * trusted folder (its `allow` rules ignored).
 *
 * @throws ConfigurationError naming the file and rule index when a file that counts is invalid.
 * @example
 * const set = await loadRuntimeRules(settings, settings.workdir);
 */
export async function loadRuntimeRules(settings: Settings, workdir: string): Promise<RuleSet> {
  return loadRuleSet({
    user: userRulesFile(settings),
    project: projectRulesFile(workdir),
    projectTrusted: await isTrustedFolder(settings.stateDir, workdir),
  });
}

/**
 * Where an "always" answer is kept: for the session while this process runs (`session`), or in
 * the user's rules file, scoped to the workdir (`project`).
 *
 * @example
 * const scope: RememberScope = 'project';
 */
export type RememberScope = 'session' | 'project';

/**
 * Judges calls the way the application's approval gate does, with the rules behind each verdict,
 * and keeps the rules a person's "always" answers add.
 *
 * @example
 * const judgement = await policy.judge({ name: 'bash', arguments: { command: 'npm test' } }, '/w');
 */
export interface RuntimePolicy {
  /**
   * The full judgement of one call in a workdir; with a session key, that session's "always"
   * answers count too.
   */
  judge(call: AssessedCall, workdir: string, sessionKey?: string): Promise<PolicyJudgement>;
  /** The rules in force for a workdir (the files read once per workdir), then the session's. */
  rules(workdir: string, sessionKey?: string): Promise<RuleSet>;
  /**
   * The `allow` rules an "always" answer to this call would keep (see `proposeRules`): scoped to
   * the workdir for `project`, unscoped for `session` (a session belongs to one workdir).
   */
  propose(
    call: AssessedCall,
    workdir: string,
    scope: RememberScope,
    sessionKey?: string,
  ): Promise<RuleProposal>;
  /** Keep rules for a session until this process ends. */
  rememberForSession(sessionKey: string, rules: readonly PermissionRule[]): void;
  /**
   * Add rules to the user's rules file and read the workdir's rules again. The rules count for
   * this process at once (before the file is written, so a call judged meanwhile sees them) and
   * stay in force here even when the file cannot take them. Resolves to the file written and the
   * rules that were new to it.
   *
   * @throws ConfigurationError when the file is not a valid rules file or cannot be written.
   */
  rememberInProject(
    workdir: string,
    rules: readonly PermissionRule[],
  ): Promise<{ file: string; added: PermissionRule[] }>;
}

/**
 * The application's risk policy with the kept rules: it judges the calls of
 * `TINY_CLAW_APPROVAL_REQUIRED_TOOLS` and of every MCP server's tool (`mcp__…`, which needs
 * approval unless its server marks it read-only and a kept rule allows it) in the call's workdir, with the state dir and tiny-claw's own
 * settings files (the rules files among them) as protected paths, knows the bash sandbox in force
 * (`TINY_CLAW_SANDBOX`, `auto` resolved the way the bash tool resolves it, once), and applies the
 * rules of the workdir, read once per workdir (and again after an "always in this project"
 * answer), then the session's "always" answers. A project's `allow` rules, which are ignored, are
 * reported once through `logger`.
 *
 * @example
 * const policy = createRuntimePolicy(settings);
 * (await policy.judge(call, settings.workdir)).verdict; // 'approval_required'
 */
export function createRuntimePolicy(
  settings: Settings,
  logger?: Logger,
  tools: {
    /**
     * The tools their provider marks read-only (MCP tools with `readOnlyHint`), asked at each
     * judgement: only for these can a kept `allow` rule lift the approval MCP tools need.
     */
    readOnlyTools?: () => readonly string[];
  } = {},
): RuntimePolicy {
  let sandbox: 'bwrap' | 'off' | undefined;
  const loaded = new Map<string, Promise<RuleSet>>();
  const sessions = new Map<string, SourcedRule[]>();
  // Project answers not yet read back from the user's file, by workdir.
  const pending = new Map<string, SourcedRule[]>();
  const fileRules = (workdir: string): Promise<RuleSet> => {
    let set = loaded.get(workdir);
    if (set === undefined) {
      set = loadRuntimeRules(settings, workdir).then((read) => {
        for (const ignored of read.ignored)
          logger?.warn(
            `Ignored the rule "${describeRule(ignored.rule)}" (${describeSource(ignored.source)}): a project's rules file may only add ask and deny rules.`,
          );
        return read;
      });
      // A file that fails to read is read again next time rather than failing every call.
      set.catch(() => loaded.delete(workdir));
      loaded.set(workdir, set);
    }
    return set;
  };
  const rules = async (workdir: string, sessionKey?: string): Promise<RuleSet> => {
    const read = await fileRules(workdir);
    const answered = [
      ...(pending.get(workdir) ?? []),
      ...((sessionKey === undefined ? undefined : sessions.get(sessionKey)) ?? []),
    ];
    return answered.length === 0 ? read : { ...read, rules: [...read.rules, ...answered] };
  };
  const options = (workdir: string, tool: string) => {
    sandbox ??= sandboxStatus(runtimeSandbox(settings)).active;
    return {
      // An MCP server's tool can do anything its server can: it always needs approval.
      requiredTools: isMcpToolName(tool)
        ? [...settings.approvalRequiredTools, tool]
        : settings.approvalRequiredTools,
      workdir,
      protectedPaths: [settings.stateDir, ...settings.settingsPaths],
      sandbox,
      readOnlyTools: tools.readOnlyTools?.() ?? [],
    };
  };
  return {
    rules,
    judge: async (call, workdir, sessionKey) =>
      judgeCallWithRules(call, options(workdir, call.name), await rules(workdir, sessionKey)),
    propose: async (call, workdir, scope, sessionKey) =>
      proposeRules(
        call,
        options(workdir, call.name),
        await rules(workdir, sessionKey),
        scope === 'project' ? { workdir } : {},
      ),
    rememberForSession: (sessionKey, added) => {
      const kept = sessions.get(sessionKey) ?? [];
      for (const rule of added)
        kept.push({ rule, source: { origin: 'session', file: sessionKey, index: kept.length } });
      sessions.set(sessionKey, kept);
    },
    rememberInProject: async (workdir, added) => {
      const file = userRulesFile(settings);
      const answered: SourcedRule[] = added.map((rule, index) => ({
        rule,
        source: { origin: 'user', file, index },
      }));
      pending.set(workdir, [...(pending.get(workdir) ?? []), ...answered]);
      const written = await appendRulesFile(file, added);
      // Read back from the file from now on.
      loaded.delete(workdir);
      await fileRules(workdir).catch(() => undefined);
      pending.set(
        workdir,
        (pending.get(workdir) ?? []).filter((rule) => !answered.includes(rule)),
      );
      return written;
    },
  };
}
