import {
  ConfigurationError,
  errorMessage,
  type RunEvent,
  type RunResult,
  type SessionRef,
  type StopReason,
  type SubagentHost,
  type Tool,
} from '@tiny-claw/core';
import { childSession } from './child-session.js';
import { explorerPrompt } from './explorer-prompt.js';
import { clue, formatReport } from './explorer-report.js';
import { EXPLORER_LIMITS } from './limits.js';

/**
 * What one exploration produced.
 *
 * @example
 * const { report, childSession } = await runner.runExplorer('where is the port set?', session);
 */
export interface ExplorerOutcome {
  /** The text handed to the parent (header and body, at most 4,000 characters). */
  report: string;
  childSession: SessionRef;
  stopReason: StopReason;
  steps: number;
  /** The child run's own result (its tokens are already counted in the calling run). */
  result: RunResult;
}

/**
 * Runs the explorer: a read-only child agent with its own session, messages and memory that looks
 * into one task and reports back. It gets the calling run's provider, policy and store through the
 * {@link SubagentHost} of the tool call, and only the read-only tools among those the calling run
 * may use, so it can never do what its parent may not.
 *
 * @example
 * const runner = new SubagentRunner(ctx.subagents);
 * const outcome = await runner.runExplorer('Find where the retry limit is defined', ctx.session, 6);
 */
export class SubagentRunner {
  readonly #host: SubagentHost;
  readonly #tools: readonly Tool[];

  /**
   * @param host - the tool call's way to start child runs (`ToolContext.subagents`).
   * @param options.tools - read-only tools the explorer gets even when the calling run is not shown them.
   */
  constructor(host: SubagentHost, options: { tools?: readonly Tool[] } = {}) {
    this.#host = host;
    this.#tools = (options.tools ?? []).filter((tool) => tool.readOnly === true);
  }

  /**
   * Explore `task` in a fresh child session under `parentSession` for at most `maxSteps` steps
   * (1 to 12). The child session's memory records the task and the report, nothing else; the
   * parent's memory is not touched.
   *
   * @throws ConfigurationError for an empty task or a step count outside 1–12.
   *
   * @example
   * const { report } = await runner.runExplorer('Which test covers retries?', session);
   */
  async runExplorer(
    task: string,
    parentSession: SessionRef,
    maxSteps: number = EXPLORER_LIMITS.defaultMaxSteps,
  ): Promise<ExplorerOutcome> {
    checkTask(task);
    checkSteps(maxSteps);
    const host = this.#host;
    const session = childSession(parentSession);
    const tools = [
      ...new Set([
        ...host.tools.filter((tool) => tool.readOnly).map((tool) => tool.name),
        ...this.#tools.map((tool) => tool.name).filter((name) => host.allows(name)),
      ]),
    ].sort();
    const where = whereLine(session.workdir, host.provider);
    host.logger.info(
      `[subagent] explorer started parent_session=${parentSession.key} child_session=${session.key} ${where} max_steps=${maxSteps} task_chars=${task.length} tools=${tools.join(',') || '(none)'}`,
    );
    const notes = new ChildNotes();
    const result = await host.run({
      prompt: explorerPrompt.task(task, tools),
      instructions: explorerPrompt.instructions,
      session,
      maxSteps,
      tools,
      extraTools: this.#tools,
      onEvent: (event) => notes.add(event),
    });
    const report = formatReport({
      childSession: session.key,
      stopReason: result.stopReason,
      body: reportBody(result, notes, tools.length === 0),
    });
    host.logger.info(
      `[subagent] explorer finished child_session=${session.key} ${where} stop_reason=${result.stopReason} steps=${result.steps}/${maxSteps} report_chars=${report.length}`,
    );
    await host
      .memory(session)
      .append([
        { key: 'last_prompt', value: task },
        { key: 'last_response', value: report },
      ])
      .catch((error: unknown) =>
        host.logger.warn(
          `[subagent] could not record the explorer's memory child_session=${session.key}: ${errorMessage(error)}`,
        ),
      );
    return {
      report,
      childSession: session,
      stopReason: result.stopReason,
      steps: result.steps,
      result,
    };
  }
}

/** Where the child runs, for its log lines: `workdir=… provider=…` and `model=…` when known. */
function whereLine(workdir: string, provider: SubagentHost['provider']): string {
  const model = provider.model ? ` model=${logValue(provider.model)}` : '';
  return `workdir=${logValue(workdir)} provider=${logValue(provider.name)}${model}`;
}

/** A value as one `key=value` word: quoted (JSON) when it has spaces, quotes, `=` or controls. */
function logValue(value: string): string {
  return /^[^\s"=\\\p{Cc}]+$/u.test(value) ? value : JSON.stringify(value);
}

function checkTask(task: unknown): asserts task is string {
  if (typeof task !== 'string' || task.trim() === '') {
    throw new ConfigurationError('explore task must not be empty: say what to look for.');
  }
  if (task.length > EXPLORER_LIMITS.maxTaskChars) {
    throw new ConfigurationError(
      `explore task is ${task.length} characters; the limit is ${EXPLORER_LIMITS.maxTaskChars}: say what to look for in fewer words.`,
    );
  }
}

function checkSteps(maxSteps: unknown): void {
  if (
    typeof maxSteps !== 'number' ||
    !Number.isInteger(maxSteps) ||
    maxSteps < 1 ||
    maxSteps > EXPLORER_LIMITS.maxSteps
  ) {
    throw new ConfigurationError(
      `explore max_steps must be an integer from 1 to ${EXPLORER_LIMITS.maxSteps} (got ${String(maxSteps)}).`,
    );
  }
}

/** What the child did, kept from its events for a "not found" report. */
class ChildNotes {
  #runId: string | undefined;
  readonly checked: string[] = [];
  readonly clues: string[] = [];

  add(event: RunEvent): void {
    if (event.type === 'run.start' && this.#runId === undefined) this.#runId = event.runId;
    if (event.runId !== this.#runId) return;
    if (event.type === 'tool.start') {
      this.checked.push(`${event.call.name} ${JSON.stringify(event.call.arguments)}`);
    } else if (event.type === 'tool.end') {
      this.clues.push(clue(event.call.name, event.observation.content));
      if (this.clues.length > EXPLORER_LIMITS.clues) this.clues.shift();
    }
  }
}

function reportBody(result: RunResult, notes: ChildNotes, noTools: boolean): string {
  const body = (() => {
    switch (result.stopReason) {
      case 'final':
        return result.text.trim() === '' ? explorerPrompt.emptyFinal : result.text.trim();
      case 'max_steps_exhausted':
        return explorerPrompt.exhausted(result.maxSteps, result.text, notes.checked, notes.clues);
      default:
        return explorerPrompt.stopped(result.stopReason, result.text);
    }
  })();
  return noTools ? `${body}\n\n${explorerPrompt.noTools}` : body;
}
