import { stat } from 'node:fs/promises';
import {
  type ApprovalDecision,
  ApprovalError,
  type ApprovalGate,
  type ClaimedApproval,
} from '../approval/approval-gate.js';
import { ConfigurationError } from '../errors.js';
import { resumeRun } from '../loop/resume-run.js';
import { newRunId } from '../loop/run-frame.js';
import { type RunState, runStateSchema } from '../loop/run-state.js';
import { type RunMode, type RunResult, runModes } from '../loop/run-types.js';
import type { RunSetup } from '../loop/start-run.js';
import { startRun } from '../loop/start-run.js';
import type { Message } from '../messages.js';
import type { RunEvent, RunEventListener } from '../observe/run-events.js';
import type { LLMProvider } from '../provider.js';
import { cliSession } from '../session/resolve-session.js';
import { isRunSession, runSession } from '../session/run-session.js';
import type { SessionRef } from '../session/session-ref.js';
import type { StateStore } from '../store/state-store.js';
import { RunEventStream } from './event-stream.js';
import { assertPromptSize } from './prompt-limit.js';
import { readRunHistory } from './run-history.js';
import { linkSignals } from './run-signal.js';
import { agentText } from './strings.js';

/**
 * Options of one run; each overrides the agent's default for this run only.
 *
 * @example
 * await agent.run('fix the test', { session: 'bugfix', maxSteps: 40, signal: AbortSignal.timeout(600_000) });
 */
export interface AgentRunOptions {
  /**
   * The session whose memory and plan the run uses: a name (a session of the agent's workdir, the
   * same one the CLI's `--session NAME` uses) or a resolved session. Memory is carried only within
   * a session. Omitted: the run starts fresh and keeps nothing — it reads no memory, writes no
   * memory line, keeps its plan (plan modes) inside the run, and gets a session of its own, keyed
   * by its run id, only so that a pause for approval can be resumed.
   */
  session?: string | SessionRef;
  maxSteps?: number;
  mode?: RunMode;
  /** Cancels the run: tool processes are stopped and the run ends with `cancelled`. */
  signal?: AbortSignal;
  /** Receives every event of this run as it happens. */
  onEvent?: RunEventListener;
  /** Who asked for the run (`cli:<user>`, a chat user's id); recorded with approval requests. */
  requestedBy?: string;
  /**
   * Where the run was asked for, as your front end names it (a chat's id, say): recorded with
   * approval requests, which are then decided only from the same origin. Opaque to the agent.
   */
  origin?: string;
  /**
   * Earlier turns of a conversation your front end keeps (an interactive chat), oldest first:
   * `user` and `assistant` text messages, placed before the prompt so the model reads them as the
   * conversation so far. Only their role and text are used. Omitted: none (the session's memory,
   * if any, is still read).
   */
  history?: ReadonlyArray<Pick<Message, 'role' | 'content'>>;
}

/**
 * A decision on a paused call, and how to run what follows it.
 *
 * @example
 * await agent.resume(result.approvalId!, { decision: 'reject', actor: 'cli:alice', reason: 'not today' });
 */
export interface AgentResumeOptions extends ApprovalDecision {
  /**
   * The session the decision is made from. Omitted: the paused run's own session when that run
   * was started without one (known to this agent, or found in its store), else the `default`
   * session of the agent's workdir.
   */
  session?: string | SessionRef;
  signal?: AbortSignal;
  onEvent?: RunEventListener;
}

/**
 * A decision on one call a run state waits on, for {@link Agent.resume} with a state.
 *
 * @example
 * const decisions: ResumeDecision[] = [{ id: result.approvalId!, approve: true }];
 */
export interface ResumeDecision {
  /** The approval id (`RunResult.approvalId`). */
  id: string;
  approve: boolean;
  /** Why (a rejection's reason reaches the model). */
  reason?: string;
  /** Who decided (default: the options' `actor`, else `api`). */
  actor?: string;
}

/**
 * How to run what follows decisions on a run state.
 *
 * @example
 * await agent.resume(state, [{ id, approve: true }], { actor: 'cli:alice', signal });
 */
export interface AgentStateResumeOptions {
  /** Who decided, for the decisions that do not say (default `api`). */
  actor?: string;
  /** Where the decisions came from (see {@link AgentRunOptions.origin}). */
  origin?: string;
  signal?: AbortSignal;
  onEvent?: RunEventListener;
}

/** How many paused runs without a session an agent keeps the session of, by approval id. */
const MAX_PAUSED_RUNS = 1000;

/** What {@link Agent} is made of; built by `createAgent`. */
export interface AgentParts {
  setup: RunSetup;
  workdir: string;
  maxSteps: number;
  mode: RunMode;
  signal: AbortSignal | undefined;
}

/**
 * A configured agent: a provider, tools behind one policy, a store. Each `run` is independent and
 * several may run at once; runs in the same named session share its memory and plan, and a run
 * without a session shares nothing with any other.
 *
 * @example
 * const agent = createAgent({ provider, tools: [add] });
 * const result = await agent.run('what is 2 + 3?');
 * for await (const event of agent.stream('and 4 + 5?')) if (event.type === 'text.delta') process.stdout.write(event.text);
 */
export class Agent {
  readonly #parts: AgentParts;
  readonly #pausedRuns = new Map<string, SessionRef>();

  constructor(parts: AgentParts) {
    this.#parts = parts;
  }

  /** The directory the agent works in (absolute). */
  get workdir(): string {
    return this.#parts.workdir;
  }

  /** The tools the model is shown and may call, sorted; the policy is already applied. */
  get tools(): readonly string[] {
    return this.#parts.setup.tools;
  }

  get provider(): LLMProvider {
    return this.#parts.setup.provider;
  }

  get store(): StateStore {
    return this.#parts.setup.store;
  }

  /**
   * Run the agent on `prompt` until it answers, stops or is cancelled. Resolves to the
   * {@link RunResult} whatever the stop reason (a provider failure is `provider_error`, not a
   * rejection); rejects only for invalid options or a broken store.
   *
   * @throws ConfigurationError for an invalid prompt, session, mode or step limit, or a workdir that is not a directory.
   * @throws PromptTooLargeError (code `input`) for a prompt over 1 MiB of UTF-8 (`MAX_PROMPT_BYTES`); nothing is sent or stored.
   *
   * @example
   * const { text, stopReason } = await agent.run('what is 2 + 3?');
   */
  async run(prompt: string, options: AgentRunOptions = {}): Promise<RunResult> {
    const { setup, workdir } = this.#parts;
    if (typeof prompt !== 'string') throw new ConfigurationError(agentText.badPrompt);
    // Before the session is recorded: a refused prompt leaves nothing behind.
    assertPromptSize(prompt);
    const mode = options.mode ?? this.#parts.mode;
    if (!runModes.includes(mode)) throw new ConfigurationError(agentText.badMode(mode, runModes));
    const maxSteps = options.maxSteps ?? this.#parts.maxSteps;
    if (!Number.isInteger(maxSteps) || maxSteps < 1) {
      throw new ConfigurationError(agentText.badPositiveInteger('maxSteps', maxSteps));
    }
    const history = options.history === undefined ? [] : readRunHistory(options.history);
    await assertDirectory(workdir);
    const runId = newRunId();
    // Without a session the run is on its own: nothing recorded in the store, nothing remembered.
    const session =
      options.session === undefined
        ? await runSession(workdir, runId)
        : await this.session(options.session);
    return this.#withSignal(options.signal, (signal) =>
      startRun(setup, {
        runId,
        prompt,
        session,
        mode,
        maxSteps,
        signal,
        listeners: options.onEvent ? [options.onEvent] : [],
        caller: 'main_loop',
        ...(options.requestedBy === undefined ? {} : { requestedBy: options.requestedBy }),
        ...(options.origin === undefined ? {} : { origin: options.origin }),
        ...(history.length === 0 ? {} : { history }),
      }),
    );
  }

  /**
   * Run `body` with one signal linked to the agent's and the caller's: both are held, and
   * listened to, only until the body settles.
   */
  async #withSignal(
    signal: AbortSignal | undefined,
    body: (signal: AbortSignal) => Promise<RunResult>,
  ): Promise<RunResult> {
    const linked = linkSignals([this.#parts.signal, signal]);
    try {
      return this.#notePause(await body(linked.signal));
    } finally {
      linked.release();
    }
  }

  /**
   * A run without a session that paused: its own session is kept by approval id (the most recent
   * {@link MAX_PAUSED_RUNS} only), so a decision without a session finds it
   * even when the gate keeps its requests in another store than the agent's.
   */
  #notePause(result: RunResult): RunResult {
    const session = result.state?.session;
    if (result.approvalId !== undefined && session !== undefined && isRunSession(session)) {
      this.#pausedRuns.set(result.approvalId, session);
      if (this.#pausedRuns.size > MAX_PAUSED_RUNS) {
        const oldest = this.#pausedRuns.keys().next().value;
        if (oldest !== undefined) this.#pausedRuns.delete(oldest);
      }
    }
    return result;
  }

  /**
   * Decide on a call that paused the run with `approval_required` and continue that run: the
   * decision is checked (id, session, actor, still pending, not expired, nothing changed since)
   * and claimed so it takes effect at most once, the approved call runs (or the model is told it
   * was rejected, by whom and why), the rest of that turn runs, and the loop goes on. Resolves to
   * the resumed run's result, which may pause again.
   *
   * Two forms: by approval id (the gate's stored state of the paused run is continued), or with
   * the run state itself (`RunResult.state` of the paused run, possibly serialised and read back
   * in another process) and the decisions on the calls it waits on. Either way it is the same
   * loop a fresh run enters, continued from the state.
   *
   * @throws ConfigurationError when the agent has no approval gate or the options, state or decisions are invalid.
   * @throws ApprovalError when a decision is refused (unknown, another session's, already handled, expired, changed, not waiting in the state, or an approval of a call to a tool this agent cannot run); nothing runs then.
   *
   * @example
   * const result = await agent.run('update the .env');
   * if (result.stopReason === 'approval_required') {
   *   const resumed = await agent.resume(result.approvalId!, { decision: 'approve', actor: 'cli:me' });
   *   // or, from the state (JSON in a file, a database row …):
   *   // await agent.resume(result.state!, [{ id: result.approvalId!, approve: true }]);
   * }
   */
  resume(approvalId: string, options: AgentResumeOptions): Promise<RunResult>;
  resume(
    state: RunState,
    decisions: readonly ResumeDecision[],
    options?: AgentStateResumeOptions,
  ): Promise<RunResult>;
  async resume(
    target: string | RunState,
    second: AgentResumeOptions | readonly ResumeDecision[],
    third: AgentStateResumeOptions = {},
  ): Promise<RunResult> {
    const { setup } = this.#parts;
    const gate = setup.approvals;
    if (!gate) throw new ConfigurationError(agentText.noGate);
    if (typeof target !== 'string') return this.#resumeState(gate, target, second, third);
    const options = second as AgentResumeOptions;
    if (options?.decision !== 'approve' && options?.decision !== 'reject') {
      throw new ConfigurationError(agentText.badDecision(options?.decision));
    }
    if (typeof options.actor !== 'string' || options.actor.trim() === '') {
      throw new ConfigurationError(agentText.badActor);
    }
    const session = await this.#decidingSession(target, options.session);
    const claimed = await gate.claim(target, {
      decision: options.decision,
      actor: options.actor,
      session,
      runnableTools: setup.tools,
      ...(options.reason === undefined ? {} : { reason: options.reason }),
      ...(options.origin === undefined ? {} : { origin: options.origin }),
    });
    return this.#withSignal(options.signal, (signal) =>
      resumeRun(setup, [claimed], this.#resumeRequest(options, options.actor, signal)),
    );
  }

  /**
   * The session a decision by approval id is made from: the one given; without one, the paused
   * run's own session when the request belongs to a run started without a session (found in the
   * agent's store), else the `default` session.
   */
  async #decidingSession(
    approvalId: string,
    given: string | SessionRef | undefined,
  ): Promise<SessionRef> {
    if (given !== undefined) return this.session(given);
    const paused = this.#pausedRuns.get(approvalId);
    if (paused) return paused;
    const approvals = this.#parts.setup.store.approvals;
    const key = await approvals.locate(approvalId).catch(() => undefined);
    const record =
      key === undefined ? undefined : await approvals.read(key, approvalId).catch(() => undefined);
    if (record && isRunSession({ source: record.sessionSource })) {
      return {
        ...(await runSession(this.#parts.workdir, record.sessionExternalId)),
        key: record.sessionKey,
      };
    }
    return this.session();
  }

  async #resumeState(
    gate: ApprovalGate,
    given: unknown,
    decisions: unknown,
    options: AgentStateResumeOptions,
  ): Promise<RunResult> {
    const parsed = runStateSchema.safeParse(given);
    if (!parsed.success) {
      throw new ConfigurationError(agentText.badRunState(parsed.error.issues[0]?.message ?? ''));
    }
    const state = parsed.data;
    const checked = checkDecisions(decisions, state);
    const defaultActor = options.actor ?? 'api';
    // A run's own session is taken as the state says; it is never recorded in the store.
    const session = isRunSession(state.session) ? state.session : await this.session(state.session);
    const claims: ClaimedApproval[] = [];
    for (const decision of checked) {
      const actor = decision.actor ?? defaultActor;
      claims.push(
        await gate.claim(
          decision.id,
          {
            decision: decision.approve ? 'approve' : 'reject',
            actor,
            session,
            runnableTools: this.#parts.setup.tools,
            ...(decision.reason === undefined ? {} : { reason: decision.reason }),
            ...(options.origin === undefined ? {} : { origin: options.origin }),
          },
          { state },
        ),
      );
    }
    return this.#withSignal(options.signal, (signal) =>
      resumeRun(this.#parts.setup, claims, this.#resumeRequest(options, defaultActor, signal)),
    );
  }

  #resumeRequest(
    options: { onEvent?: RunEventListener; origin?: string },
    actor: string,
    signal: AbortSignal,
  ): Parameters<typeof resumeRun>[2] {
    return {
      signal,
      listeners: options.onEvent ? [options.onEvent] : [],
      requestedBy: actor,
      // The continued run is asked for from where the decision came.
      ...(options.origin === undefined ? {} : { origin: options.origin }),
    };
  }

  /**
   * Run the agent on `prompt` and yield its events as they happen; the last one is `run.finish`
   * with the result. Leaving the loop early cancels the run. A prompt `run` refuses (over 1 MiB,
   * say) makes the iteration throw that error; no event is yielded.
   *
   * @example
   * for await (const event of agent.stream('rename foo to bar')) {
   *   if (event.type === 'tool.start') console.log('→', event.call.name);
   * }
   */
  stream(prompt: string, options: Omit<AgentRunOptions, 'onEvent'> = {}): AsyncIterable<RunEvent> {
    const abandon = new AbortController();
    const stream = new RunEventStream(() => abandon.abort());
    // The caller's signal is held and listened to until the run settles (see `run`).
    const linked = linkSignals([options.signal, abandon.signal]);
    this.run(prompt, { ...options, signal: linked.signal, onEvent: (event) => stream.push(event) })
      .finally(() => linked.release())
      .then(
        () => stream.end(),
        (error: unknown) => stream.fail(error),
      );
    return stream;
  }

  /**
   * Resolve a session and record it in the store: a name is a session of this agent's workdir
   * (`default` when omitted — the CLI's session without `--session`; note that `run` without a
   * session does not use it); a resolved session is taken as it is.
   *
   * @throws ConfigurationError for a name over 100 characters or with control characters.
   *
   * @example
   * const session = await agent.session('bugfix');
   * const plan = await agent.store.plans(session).read();
   */
  async session(session?: string | SessionRef): Promise<SessionRef> {
    let resolved: SessionRef;
    if (session === undefined || typeof session === 'string') {
      resolved = await cliSession(this.#parts.workdir, session);
    } else if (isSessionRef(session)) {
      resolved = session;
    } else {
      throw new ConfigurationError(agentText.badSession(session));
    }
    await this.#parts.setup.store.saveSession(resolved);
    return resolved;
  }
}

function isSessionRef(value: unknown): value is SessionRef {
  const candidate = value as Partial<SessionRef> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.key === 'string' &&
    typeof candidate.workdir === 'string' &&
    typeof candidate.source === 'string'
  );
}

async function assertDirectory(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new ConfigurationError(
      `the workdir ${path} ${info ? 'is not a directory' : 'does not exist'}: pass an existing directory as workdir.`,
    );
  }
}

/**
 * The decisions of a state-based resume, checked before anything is claimed: a non-empty list,
 * each for a call the state waits on, each call decided once.
 */
function checkDecisions(decisions: unknown, state: RunState): ResumeDecision[] {
  if (!Array.isArray(decisions) || decisions.length === 0) {
    throw new ConfigurationError(agentText.badDecisions);
  }
  const waiting = new Set(
    (state.batch?.calls ?? [])
      .filter((entry) => entry.status === 'awaiting_approval' && entry.approval)
      .map((entry) => entry.approval?.approvalId),
  );
  const seen = new Set<string>();
  return decisions.map((raw: unknown) => {
    const decision = raw as Partial<ResumeDecision> | null;
    if (
      typeof decision !== 'object' ||
      decision === null ||
      typeof decision.id !== 'string' ||
      typeof decision.approve !== 'boolean' ||
      (decision.reason !== undefined && typeof decision.reason !== 'string') ||
      (decision.actor !== undefined &&
        (typeof decision.actor !== 'string' || decision.actor.trim() === ''))
    ) {
      throw new ConfigurationError(agentText.badDecisions);
    }
    if (!waiting.has(decision.id)) {
      throw new ApprovalError('not_found', agentText.notWaiting(decision.id, [...waiting]));
    }
    if (seen.has(decision.id)) throw new ConfigurationError(agentText.decidedTwice(decision.id));
    seen.add(decision.id);
    return decision as ResumeDecision;
  });
}
