/**
 * Limits of the explorer subagent.
 *
 * @example
 * EXPLORER_LIMITS.maxSteps; // 12
 */
export const EXPLORER_LIMITS = {
  /** Steps an explorer gets when the caller does not say. */
  defaultMaxSteps: 6,
  /** The most steps an explorer may be given; more is refused, never silently clamped. */
  maxSteps: 12,
  /** Longest report handed back to the parent, header included. */
  reportMaxChars: 4000,
  /** Characters of the report's beginning kept when it is cut (the end fills the rest). */
  reportHeadChars: 1000,
  /** Characters of one observation kept as a clue in a "not found" report. */
  clueChars: 800,
  /** How many of the last observations a "not found" report lists as clues. */
  clues: 3,
  /** The longest task accepted, in characters. */
  maxTaskChars: 20_000,
} as const;
