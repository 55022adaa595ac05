import { join } from 'node:path';
import {
  type AssessedCall,
  describeRule,
  describeSource,
  judgeCallWithRules,
  loadRuleSet,
  type PolicyJudgement,
  type RuleSet,
} from '@tiny-claw/approval';
import type { Logger } from '@tiny-claw/core';
import { sandboxStatus } from '@tiny-claw/tools';
import type { Settings } from '../settings/settings-schema.js';
import { isTrustedFolder } from '../settings/trusted-folders.js';
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
 * Judges calls the way the application's approval gate does, with the rules behind each verdict.
 *
 * @example
 * const judgement = await policy.judge({ name: 'bash', arguments: { command: 'npm test' } }, '/w');
 */
export interface RuntimePolicy {
  /** The full judgement of one call in a workdir. */
  judge(call: AssessedCall, workdir: string): Promise<PolicyJudgement>;
  /** The rules in force for a workdir (read once per workdir). */
  rules(workdir: string): Promise<RuleSet>;
}

/**
 * The application's risk policy with the kept rules: it judges the calls of
 * `TINY_CLAW_APPROVAL_REQUIRED_TOOLS` and of every MCP server's tool (`mcp__…`, which always needs
 * approval) in the call's workdir, with the state dir and tiny-claw's own
 * settings files (the rules files among them) as protected paths, knows the bash sandbox in force
 * (`TINY_CLAW_SANDBOX`, `auto` resolved the way the bash tool resolves it, once), and applies the
 * rules of the workdir, read once per workdir. A project's `allow` rules, which are ignored, are
 * reported once through `logger`.
 *
 * @example
 * const policy = createRuntimePolicy(settings);
 * (await policy.judge(call, settings.workdir)).verdict; // 'approval_required'
 */
export function createRuntimePolicy(settings: Settings, logger?: Logger): RuntimePolicy {
  let sandbox: 'bwrap' | 'off' | undefined;
  const loaded = new Map<string, Promise<RuleSet>>();
  const rules = (workdir: string): Promise<RuleSet> => {
    let set = loaded.get(workdir);
    if (set === undefined) {
      set = loadRuntimeRules(settings, workdir).then((read) => {
        for (const ignored of read.ignored)
          logger?.warn(
            `Ignored the rule "${describeRule(ignored.rule)}" (${describeSource(ignored.source)}): a project's rules file may only add ask and deny rules.`,
          );
        return read;
      });
      loaded.set(workdir, set);
    }
    return set;
  };
  return {
    rules,
    judge: async (call, workdir) => {
      sandbox ??= sandboxStatus(runtimeSandbox(settings)).active;
      return judgeCallWithRules(
        call,
        {
          // An MCP server's tool can do anything its server can: it always needs approval.
          requiredTools: isMcpToolName(call.name)
            ? [...settings.approvalRequiredTools, call.name]
            : settings.approvalRequiredTools,
          workdir,
          protectedPaths: [settings.stateDir, ...settings.settingsPaths],
          sandbox,
        },
        await rules(workdir),
      );
    },
  };
}
