import { performance } from 'node:perf_hooks';

/**
 * A point in time after which matching gives up. Strategies poll it every few hundred
 * iterations, so a pathological input costs at most the budget, never minutes.
 *
 * @example
 * const deadline = createDeadline(250);
 * if (deadline.expired()) throw new MatchBudgetExceeded();
 */
export interface Deadline {
  expired(): boolean;
  /** Milliseconds since the deadline was created. */
  elapsedMs(): number;
}

/**
 * Start a deadline `budgetMs` from now. `clock` is injectable so tests can simulate a slow run.
 *
 * @example
 * const deadline = createDeadline(250);
 * deadline.elapsedMs(); // ≈ 0
 */
export function createDeadline(
  budgetMs: number,
  clock: () => number = () => performance.now(),
): Deadline {
  const start = clock();
  return {
    expired: () => clock() - start > budgetMs,
    elapsedMs: () => clock() - start,
  };
}

/** A deadline that never expires, for strategies called on their own. */
export const NO_DEADLINE: Deadline = { expired: () => false, elapsedMs: () => 0 };

/**
 * Thrown inside the matcher when the deadline passed; {@link findMatch} turns it into a
 * "not found (time budget exceeded)" outcome.
 *
 * @example
 * try { matchLineTrimmed(content, old, deadline); } catch (e) { if (e instanceof MatchBudgetExceeded) … }
 */
export class MatchBudgetExceeded extends Error {
  constructor() {
    super('edit matching exceeded its time budget');
    this.name = 'MatchBudgetExceeded';
  }
}

/**
 * Throw {@link MatchBudgetExceeded} when `counter` hits a polling point and the deadline passed.
 * Polling every 512 iterations keeps the clock calls off the hot path.
 *
 * @example
 * for (let i = 0; i < n; i += 1) checkDeadline(deadline, i);
 */
export function checkDeadline(deadline: Deadline, counter: number): void {
  if ((counter & 511) === 0 && deadline.expired()) throw new MatchBudgetExceeded();
}
