import type { RunResult } from '../loop/run-types.js';
import type { RunEvent } from './run-events.js';

/**
 * Where a finished run's trace went, if anything was written.
 *
 * @example
 * const where: TraceLocation | undefined = await tracer.finishRun(result.runId, { result });
 */
export interface TraceLocation {
  traceId: string;
  tracePath?: string;
}

/**
 * Records runs as traces. It subscribes to the run's event stream like any other listener, and is
 * asked once at the end of each run to persist what it recorded, so the run's result can say where
 * the trace is. Implemented by `@tiny-claw/tracing`; an agent without a tracer records nothing.
 * Nothing a tracer does may fail a run: `onEvent` must not throw, and a rejected `finishRun` is
 * logged and ignored.
 *
 * @example
 * const spans: string[] = [];
 * const tracer: Tracer = {
 *   onEvent: (event) => void spans.push(event.type),
 *   finishRun: async (runId) => ({ traceId: runId }),
 * };
 */
export interface Tracer {
  /** Every event of every run of the agent, nested runs included, in order. */
  onEvent(event: RunEvent): void;
  /**
   * The run `runId` ended — with a result (which has no trace fields yet), or with an unexpected
   * error that is about to propagate to the caller: close and persist its trace. Resolves to where
   * it went; undefined when nothing was written (or for a nested run, whose spans belong to its
   * parent's trace).
   */
  finishRun(runId: string, outcome: RunOutcome): Promise<TraceLocation | undefined>;
}

/**
 * How a run ended, as a tracer learns it.
 *
 * @example
 * const outcome: RunOutcome = { result };
 */
export type RunOutcome = { result: RunResult } | { error: unknown };
