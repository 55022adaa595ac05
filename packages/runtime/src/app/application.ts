import { stat } from 'node:fs/promises';
import {
  listApprovals,
  type PermissionRule,
  type RuleProposal,
  readApproval,
} from '@tiny-claw/approval';
import {
  type Agent,
  type AgentRunOptions,
  ApprovalError,
  type ApprovalRecord,
  type ApprovalStatus,
  ConfigurationError,
  cliSession,
  type LLMProvider,
  type PlanStore,
  type RunEventListener,
  type RunMode,
  type RunResult,
  type SessionRef,
  validateSessionName,
} from '@tiny-claw/core';
import { sandboxStatus } from '@tiny-claw/tools';
import { describeSettings, type SettingRow } from '../settings/describe-settings.js';
import type { SandboxSetting, Settings } from '../settings/settings-schema.js';
import type { McpReport } from './runtime-mcp.js';
import { createRuntimePolicy, type RememberScope, type RuntimePolicy } from './runtime-rules.js';
import { describeShellCommand } from './shell-command-view.js';
import {
  checkStateBackend,
  type StateBackend,
  type StateHealth,
  stateBackend,
} from './state-store-factory.js';
import { runtimeSandbox } from './tool-factory.js';
import { toolRefusal } from './tool-refusal.js';
import { RUNTIME_VERSION } from './version.js';

/**
 * One request to run the agent.
 *
 * @example
 * const request: RunRequest = { prompt: 'fix the test', session: 'bugfix', onEvent: print };
 */
export interface RunRequest {
  prompt: string;
  mode?: RunMode;
  /**
   * Session name (a CLI session of the workdir; the default one when omitted) or a resolved
   * session, such as a chat's (`resolveSession` from `@tiny-claw/core`).
   */
  session?: string | SessionRef;
  maxSteps?: number;
  /** Receives every event of the run (the terminal output, chat progress). */
  onEvent?: RunEventListener;
  signal?: AbortSignal;
  /** Who asked for the run, recorded with approval requests (`cli:<user>`, a chat user's id). */
  requestedBy?: string;
  /** Where the run was asked for (a chat's id): its approval requests are decided only from there. */
  origin?: string;
  /** Earlier turns of a conversation the front end keeps (see `AgentRunOptions.history`). */
  history?: AgentRunOptions['history'];
}

/**
 * A decision on a paused call, from `tiny-claw approvals approve|reject` or a chat.
 *
 * @example
 * const request: ResumeRequest = { decision: 'approve', actor: 'cli:alice', session: 'bugfix' };
 */
export interface ResumeRequest {
  decision: 'approve' | 'reject';
  actor: string;
  reason?: string;
  /**
   * Session the decision is made from: a name (the default CLI session when omitted) or a
   * resolved session, such as a chat's.
   */
  session?: string | SessionRef;
  /** Where the decision came from (a chat's id); it must be where the request was made. */
  origin?: string;
  onEvent?: RunEventListener;
  signal?: AbortSignal;
}

/**
 * The plan files of one session, for `tiny-claw plan show|reset`.
 *
 * @example
 * const { session, store } = await app.plans('auth');
 */
export interface SessionPlans {
  session: SessionRef;
  store: PlanStore;
}

/**
 * What `tiny-claw health` reports. Secrets are masked.
 *
 * @example
 * console.log(app.health().provider.reason);
 */
export interface HealthReport {
  status: 'ok';
  version: string;
  provider: { name: string; reason: string; model: string };
  tools: string[];
  /** Who decides on risky calls: `off`, `cli` (the terminal) or `feishu` (the chat). */
  approvals: 'off' | 'cli' | 'feishu';
  /**
   * The bash sandbox: the `TINY_CLAW_SANDBOX` setting, the one in force here (`bwrap` or `off`) and
   * why, e.g. `bubblewrap 0.8.0 works here (/usr/bin/bwrap)` or `bwrap not found on PATH (…)`.
   */
  sandbox: { mode: SandboxSetting; active: 'bwrap' | 'off'; reason: string };
  /**
   * The configured MCP servers (never a secret), and a project's servers left unstarted because
   * its folder is not trusted.
   */
  mcp: McpReport;
  stateDir: string;
  /**
   * Where state is kept: `files` under the state dir, or `postgres` at `TINY_CLAW_STATE_URL`
   * (password and query values masked). Whether it is reachable is {@link Application.checkState}'s.
   */
  state: StateBackend;
  workdir: string;
  settings: SettingRow[];
}

/**
 * The agent as the CLI and the server drive it: assembled once from settings by
 * `createApplication`, with the file store under the state dir, the tracer and the settings'
 * tool policy.
 *
 * @example
 * const app = await createApplication(settings);
 * const result = await app.run({ prompt: 'hello' });
 */
export class Application {
  readonly settings: Settings;
  /** Why this provider was picked, e.g. `auto: no OPENAI_API_KEY … configured`. */
  readonly providerReason: string;
  readonly agent: Agent;
  /** Who decides on risky calls in this application. */
  readonly approvalProvider: 'off' | 'cli' | 'feishu';
  /**
   * The risk policy the approval gate asks, with the kept rules: front ends judge calls with it
   * (`policy check`) and keep a person's "always" answers in it.
   */
  readonly policy: RuntimePolicy;
  /** The configured MCP servers, as `health` and `tiny-claw mcp list` show them. */
  readonly mcp: McpReport;
  readonly #close: () => Promise<void>;

  constructor(parts: {
    settings: Settings;
    providerReason: string;
    agent: Agent;
    approvalProvider?: 'off' | 'cli' | 'feishu';
    policy?: RuntimePolicy;
    mcp?: McpReport;
    close?: () => Promise<void>;
  }) {
    this.mcp = parts.mcp ?? { servers: [] };
    this.settings = parts.settings;
    this.providerReason = parts.providerReason;
    this.agent = parts.agent;
    this.approvalProvider = parts.approvalProvider ?? 'off';
    this.policy = parts.policy ?? createRuntimePolicy(parts.settings);
    this.#close = parts.close ?? (async () => {});
  }

  get provider(): LLMProvider {
    return this.agent.provider;
  }

  /**
   * Run the agent once in a session of this application's workdir: the one named, else the
   * `default` CLI session (unlike `Agent.run`, whose runs without a session keep nothing).
   */
  async run(request: RunRequest): Promise<RunResult> {
    await this.#checkWorkdir();
    return this.agent.run(request.prompt, {
      session: checkedName(request.session) ?? 'default',
      ...(request.mode ? { mode: request.mode } : {}),
      ...(request.maxSteps === undefined ? {} : { maxSteps: request.maxSteps }),
      ...(request.onEvent ? { onEvent: request.onEvent } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.requestedBy === undefined ? {} : { requestedBy: request.requestedBy }),
      ...(request.origin === undefined ? {} : { origin: request.origin }),
      ...(request.history === undefined ? {} : { history: request.history }),
    });
  }

  /**
   * Decide on a paused call and continue its run (see `Agent.resume`): refused decisions throw an
   * `ApprovalError` that says why, and nothing runs then — except an approval of a call whose tool
   * this process's settings leave out, which throws a `ConfigurationError` naming the setting.
   *
   * @example
   * const result = await app.resumeApproval('ap_…', { decision: 'approve', actor: 'cli:alice' });
   */
  async resumeApproval(approvalId: string, request: ResumeRequest): Promise<RunResult> {
    await this.#checkWorkdir();
    try {
      return await this.agent.resume(approvalId, {
        decision: request.decision,
        actor: request.actor,
        session: checkedName(request.session),
        ...(request.reason === undefined ? {} : { reason: request.reason }),
        ...(request.origin === undefined ? {} : { origin: request.origin }),
        ...(request.onEvent ? { onEvent: request.onEvent } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (error) {
      // The agent refused before claiming anything; say which setting keeps the tool out here.
      if (error instanceof ApprovalError && error.refusal === 'tool_unavailable') {
        const tool = (await this.approval(approvalId))?.toolName;
        if (tool !== undefined) {
          throw new ConfigurationError(toolRefusal(approvalId, tool, this.settings), {
            cause: error,
          });
        }
      }
      throw error;
    }
  }

  /**
   * The approval requests in the application's state store (under the state dir), newest first,
   * optionally of one status or one CLI session of this workdir.
   *
   * @example
   * const pending = await app.approvals({ status: 'pending' });
   */
  async approvals(
    filter: { status?: ApprovalStatus; session?: string } = {},
  ): Promise<ApprovalRecord[]> {
    const sessionKey =
      filter.session === undefined
        ? undefined
        : (await cliSession(this.settings.workdir, filter.session)).key;
    const records = await listApprovals(this.agent.store, {
      ...(filter.status ? { status: filter.status } : {}),
      ...(sessionKey ? { sessionKey } : {}),
    });
    return records.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /**
   * One approval request by id (validated before the store is asked), or undefined.
   *
   * @example
   * const record = await app.approval('ap_…');
   */
  approval(approvalId: string): Promise<ApprovalRecord | undefined> {
    return readApproval(this.agent.store, approvalId);
  }

  /**
   * The rules an "always" answer to a pending request would keep, so a front end can show them
   * before the person answers (and offer "always" only when there are some): for `session`, kept
   * in the request's session while this process runs; for `project`, written to the user's rules
   * file scoped to the request's workdir.
   *
   * @example
   * const proposal = await app.proposeAlways(record, 'project');
   * if (proposal.rules) console.log(proposal.rules.map(describeRule));
   */
  proposeAlways(record: ApprovalRecord, scope: RememberScope): Promise<RuleProposal> {
    return this.policy.propose(
      { name: record.toolName, arguments: record.arguments },
      record.workdir,
      scope,
      record.sessionKey,
    );
  }

  /**
   * Keep the rules of an "always" answer (as {@link proposeAlways} gave them): for the request's
   * session, or in the user's rules file (the file written is returned). Decide the request itself
   * with {@link resumeApproval}.
   *
   * @throws ConfigurationError when the user's rules file is invalid or cannot be written.
   * @example
   * await app.keepAlways(record, 'session', proposal.rules);
   */
  async keepAlways(
    record: ApprovalRecord,
    scope: RememberScope,
    rules: readonly PermissionRule[],
  ): Promise<{ file: string | null; added: PermissionRule[] }> {
    if (scope === 'session') {
      this.policy.rememberForSession(record.sessionKey, rules);
      return { file: null, added: [...rules] };
    }
    return this.policy.rememberInProject(record.workdir, rules);
  }

  /**
   * The simple commands a bash command would run, read with the risk policy's shell analysis, so
   * a front end can show a person what a paused `bash` call does. Nothing runs.
   *
   * @example
   * const { commands } = await app.describeShellCommand('npm test && git push --force');
   * commands.map((c) => c.text); // ['npm test', 'git push --force']
   */
  // The shape is spelled out (not the helper's interface) so the public surface stays in this class.
  describeShellCommand(
    command: string,
  ): Promise<{ commands: Array<{ text: string; origin: string[] }>; problems: string[] }> {
    return describeShellCommand(command);
  }

  /**
   * The plan files (`PLAN.md`, `TODO.md`) of a CLI session of this workdir, resolved exactly as
   * {@link run} resolves it, so `plan show` sees what `run --mode plan-act` wrote.
   *
   * @example
   * const { session, store } = await app.plans('auth');
   * const snapshot = await store.read(); // undefined when the session has no plan
   */
  async plans(sessionName?: string): Promise<SessionPlans> {
    await this.#checkWorkdir();
    const session = await this.agent.session(checkedName(sessionName));
    return { session, store: this.agent.store.plans(session) };
  }

  /** Flush exporters (OpenTelemetry) before the process exits. */
  close(): Promise<void> {
    return this.#close();
  }

  /**
   * The effective configuration, without calling the model. Bubblewrap is probed once per
   * process (one tiny trial run) to say whether the sandbox is in force.
   */
  health(): HealthReport {
    const sandbox = sandboxStatus(runtimeSandbox(this.settings));
    return {
      status: 'ok',
      version: RUNTIME_VERSION,
      provider: {
        name: this.provider.name,
        reason: this.providerReason,
        model: this.provider.model ?? this.settings.model ?? this.provider.name,
      },
      tools: [...this.agent.tools],
      approvals: this.approvalProvider,
      sandbox: { mode: this.settings.sandbox, active: sandbox.active, reason: sandbox.reason },
      mcp: this.mcp,
      stateDir: this.settings.stateDir,
      state: stateBackend(this.settings),
      workdir: this.settings.workdir,
      settings: describeSettings(this.settings),
    };
  }

  /**
   * The state backend and whether it can be used now: PostgreSQL is asked for its schema version
   * over a connection of its own (the answer says why when it cannot be reached); files always
   * can.
   *
   * @example
   * const state = await app.checkState(); // { backend: 'postgres', url, reachable: true, schemaVersion: 1 }
   */
  checkState(): Promise<StateHealth> {
    return checkStateBackend(this.settings);
  }

  #checkWorkdir(): Promise<void> {
    return assertWorkdir(this.settings.workdir);
  }
}

/**
 * Fail with a message that names the settings to fix when the workdir is not an existing
 * directory (checked at start-up and again before each run: it may go away in between).
 *
 * @example
 * await assertWorkdir(settings.workdir);
 */
export async function assertWorkdir(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new ConfigurationError(
      `The workdir ${path} ${info ? 'is not a directory' : 'does not exist'}: set TINY_CLAW_WORKDIR or --workdir to an existing directory.`,
    );
  }
}

/** A name is checked before use; a resolved session is taken as it is (the agent checks its shape). */
function checkedName(session: string | SessionRef | undefined): string | SessionRef | undefined {
  return typeof session === 'string' ? validateSessionName(session) : session;
}
