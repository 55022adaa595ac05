import { stat } from 'node:fs/promises';
import {
  type Channel,
  ConfigurationError,
  FilePlanStoreFactory,
  type LLMProvider,
  type Logger,
  MainLoop,
  nullTracer,
  type PlanStore,
  type RunMode,
  type RunResult,
  SessionManager,
  SessionMemoryStore,
  type SessionRef,
  validateSessionName,
} from '@tiny-claw/core';
import { describeSettings, type SettingRow } from '../settings/describe-settings.js';
import type { Settings } from '../settings/settings-schema.js';
import type { AssembledTools } from './tool-factory.js';
import type { RuntimeTracing } from './tracer-factory.js';
import { RUNTIME_VERSION } from './version.js';

/** One request to run the agent. */
export interface RunRequest {
  prompt: string;
  mode?: RunMode;
  /** Session name; the default CLI session when omitted. */
  session?: string;
  maxSteps?: number;
  channel?: Channel;
  signal?: AbortSignal;
}

/** The plan files of one session, for `tiny-claw plan show|reset`. */
export interface SessionPlans {
  session: SessionRef;
  store: PlanStore;
}

/** What `tiny-claw health` reports. Secrets are masked. */
export interface HealthReport {
  status: 'ok';
  version: string;
  provider: { name: string; reason: string; model: string };
  tools: string[];
  stateDir: string;
  workdir: string;
  settings: SettingRow[];
}

/**
 * The assembled agent: the one object both the CLI and the server drive.
 *
 * @example
 * const app = await createApplication(settings);
 * const result = await app.run({ prompt: 'hello' });
 */
export class Application {
  readonly #loop: MainLoop;
  readonly #sessions: SessionManager;
  readonly #plans: FilePlanStoreFactory;

  constructor(
    readonly settings: Settings,
    /** Why this provider was picked, e.g. `auto: no OPENAI_API_KEY … configured`. */
    readonly providerReason: string,
    readonly provider: LLMProvider,
    readonly tools: AssembledTools,
    readonly logger: Logger,
    readonly tracing: RuntimeTracing = { tracer: nullTracer, close: async () => {} },
  ) {
    this.#plans = new FilePlanStoreFactory(settings.stateDir);
    this.#loop = new MainLoop({
      provider,
      tools: tools.registry,
      memory: new SessionMemoryStore(settings.stateDir),
      plans: this.#plans,
      logger,
      tracer: tracing.tracer,
      maxTokens: settings.maxTokens,
      maxParallelTools: settings.maxParallelTools,
      compaction: {
        maxChars: settings.contextMaxChars,
        retainLastMessages: settings.contextRetainLastMessages,
      },
    });
    this.#sessions = new SessionManager({
      stateDir: settings.stateDir,
      workdir: settings.workdir,
      logger,
    });
  }

  /** Run the agent once in a CLI session of this application's workdir. */
  async run(request: RunRequest): Promise<RunResult> {
    const session = await this.#resolveSession(request.session);
    return this.#loop.run({
      prompt: request.prompt,
      session,
      visibleTools: this.tools.visible,
      ...(request.mode ? { mode: request.mode } : {}),
      ...(request.maxSteps === undefined ? {} : { maxSteps: request.maxSteps }),
      ...(request.channel ? { channel: request.channel } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
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
    const session = await this.#resolveSession(sessionName);
    return { session, store: this.#plans.forSession(session) };
  }

  /** The CLI session `name` (or the default one) of this workdir, which must exist. */
  async #resolveSession(name: string | undefined): Promise<SessionRef> {
    await assertDirectory(this.settings.workdir);
    return this.#sessions.resolveCli(name === undefined ? undefined : validateSessionName(name));
  }

  /** Flush exporters (OpenTelemetry) before the process exits. */
  close(): Promise<void> {
    return this.tracing.close();
  }

  /** The effective configuration, without calling the model. */
  health(): HealthReport {
    return {
      status: 'ok',
      version: RUNTIME_VERSION,
      provider: {
        name: this.provider.name,
        reason: this.providerReason,
        model: this.provider.model ?? this.settings.model ?? this.provider.name,
      },
      tools: this.tools.visible,
      stateDir: this.settings.stateDir,
      workdir: this.settings.workdir,
      settings: describeSettings(this.settings),
    };
  }
}

async function assertDirectory(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new ConfigurationError(
      `The workdir ${path} ${info ? 'is not a directory' : 'does not exist'}: set TINY_CLAW_WORKDIR or --workdir to an existing directory.`,
    );
  }
}
