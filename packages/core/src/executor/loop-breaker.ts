import { ConfigurationError } from '../errors.js';
import { type Message, msg, type ToolCall } from '../messages.js';
import type { ToolOutput } from '../tool.js';
import { stableJson } from '../utils/stable-json.js';
import { renderFailure } from './failure-guidance.js';
import { loopBreakerText } from './strings.js';

/**
 * The attempt at which an identical failing call is no longer executed (the original's
 * `repeat_failure_block_attempt`): two real failures, then the third is blocked.
 *
 * @example
 * createFailureTracker({ blockAttempt: REPEAT_FAILURE_BLOCK_ATTEMPT });
 */
export const REPEAT_FAILURE_BLOCK_ATTEMPT = 3;

/**
 * Failure counts of one run, keyed by {@link failureKey}. Create one per run (over the run state's
 * `failures` record) and hand it to every `executeBatch` of that run: a fresh tracker per turn would
 * never see a repeat.
 *
 * @example
 * const tracker = createFailureTracker();
 * tracker.recordFailure('lookup:{"city":"Oslo"}'); // 1
 * tracker.recordSuccess('lookup:{"city":"Oslo"}');
 * tracker.count('lookup:{"city":"Oslo"}'); // 0
 */
export interface FailureTracker {
  /** Attempt number from which an identical failing call is blocked (≥ 2). */
  readonly blockAttempt: number;
  /** Failures recorded for the key since its last success. */
  count(key: string): number;
  /** Record one more failure; returns the new count, which is the attempt number. */
  recordFailure(key: string): number;
  /** A success clears the key: the model changed something that made it work. */
  recordSuccess(key: string): void;
  /** True when the next attempt of this key must not run. */
  shouldBlock(key: string): boolean;
}

/**
 * Create an empty {@link FailureTracker}.
 *
 * @example
 * const tracker = createFailureTracker({ counts: state.failures }); // blocks the 3rd identical failing call
 * const strict = createFailureTracker({ blockAttempt: 2 });
 */
export function createFailureTracker(
  options: { blockAttempt?: number; counts?: Record<string, number> } = {},
): FailureTracker {
  const blockAttempt = options.blockAttempt ?? REPEAT_FAILURE_BLOCK_ATTEMPT;
  if (!Number.isInteger(blockAttempt) || blockAttempt < 2) {
    // A value of 1 would block every call before it ever ran.
    throw new ConfigurationError(
      `blockAttempt must be an integer of at least 2, got ${blockAttempt}`,
    );
  }
  // A plain record, so the counts travel with the run state (and survive a pause).
  const failures = options.counts ?? {};
  const count = (key: string) => (Object.hasOwn(failures, key) ? (failures[key] ?? 0) : 0);
  return {
    blockAttempt,
    count,
    recordFailure(key) {
      const next = count(key) + 1;
      failures[key] = next;
      return next;
    },
    recordSuccess(key) {
      delete failures[key];
    },
    shouldBlock(key) {
      return count(key) + 1 >= blockAttempt;
    },
  };
}

/**
 * Identity of a call for repeat detection: `<tool>:<canonical arguments>`. Undecodable raw
 * arguments are part of it, so two different broken payloads are not the same call.
 *
 * @example
 * failureKey({ id: '1', name: 'lookup', arguments: { city: 'Oslo', units: 'metric' } });
 * // 'lookup:{"city":"Oslo","units":"metric"}'
 */
export function failureKey(call: ToolCall): string {
  const base = `${call.name}:${stableJson(call.arguments)}`;
  return call.argumentsError === undefined
    ? base
    : `${base}:${JSON.stringify(call.argumentsError)}`;
}

/**
 * The `failure.code` of a call the repeated-failure breaker answered without running it.
 *
 * @example
 * if (event.blocked) console.log(event.observation.failure?.code); // 'repeat_call_blocked'
 */
export const REPEAT_CALL_BLOCKED = 'repeat_call_blocked';

/**
 * The observation of a call that was blocked instead of executed: the breaker's own failure,
 * with the executor's verdict (not retryable as it was, the attempt it would have been).
 *
 * @example
 * blockedCallOutput(call, 3).failure; // { kind: 'execution_error', code: 'repeat_call_blocked', retryable: false, attempt: 3, … }
 */
export function blockedCallOutput(call: ToolCall, attempt: number): ToolOutput {
  const previous = attempt - 1;
  const content = renderFailure(
    {
      summary: loopBreakerText.blockedSummary(call.name, previous),
      nextAction: loopBreakerText.blockedNext,
      avoid: loopBreakerText.blockedAvoid(call.name),
    },
    loopBreakerText.blockedError(previous),
    attempt,
  );
  return {
    content,
    isError: true,
    failure: {
      kind: 'execution_error',
      code: REPEAT_CALL_BLOCKED,
      advice: loopBreakerText.blockedNext,
      retryable: false,
      attempt,
    },
  };
}

/**
 * The user message appended after a turn's observations when a call was blocked, telling the
 * model to stop retrying and change strategy.
 *
 * @example
 * loopBreakerMessage('lookup', 3).content; // "You seem to be stuck in a loop: you called the 'lookup' tool 3 times …"
 */
export function loopBreakerMessage(tool: string, attempts: number): Message {
  return msg.user(loopBreakerText.message(tool, attempts));
}
