/**
 * How much work one shell analysis may do. A command over any limit is never judged safe: the
 * analysis stops, reports `over_budget`, and the policy asks a person.
 *
 * @example
 * const budget: AnalysisBudget = { ...DEFAULT_ANALYSIS_BUDGET, maxLength: 4096 };
 */
export interface AnalysisBudget {
  /** Longest command read at all, in UTF-16 code units (checked before parsing). */
  readonly maxLength: number;
  /** Deepest bracket nesting (`(`, `{`, `[`) counted before parsing, quotes ignored. */
  readonly maxNesting: number;
  /** Syntax-tree nodes visited, over the command and every nested payload. */
  readonly maxNodes: number;
  /** Deepest syntax-tree node visited. */
  readonly maxDepth: number;
  /** How deep `bash -c`, `eval`, `alias` and `trap` payloads may nest inside each other. */
  readonly maxPayloadDepth: number;
  /** Wall-clock time for parsing and walking, in milliseconds. */
  readonly maxMilliseconds: number;
}

/**
 * The limits used unless a caller passes others. Parsing 64 KiB takes tens of milliseconds; a real
 * command is far smaller, so anything past these limits is odd enough to deserve a person's look.
 *
 * @example
 * const analysis = await analyseShellCommand('ls', { budget: DEFAULT_ANALYSIS_BUDGET });
 */
export const DEFAULT_ANALYSIS_BUDGET: AnalysisBudget = Object.freeze({
  maxLength: 64 * 1024,
  maxNesting: 100,
  maxNodes: 20_000,
  maxDepth: 500,
  maxPayloadDepth: 5,
  maxMilliseconds: 1_000,
});

/**
 * The deepest nesting of `(`, `{` and `[` in `source`, counting every bracket whatever quotes
 * surround it. It over-counts quoted brackets, which only ever errs towards asking a person; it
 * exists so that thousands of nested `$(` are refused in one linear pass, before any parsing.
 *
 * @example
 * bracketNesting('echo $(ls $(pwd))'); // 2
 */
export function bracketNesting(source: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i += 1) {
    const code = source.charCodeAt(i);
    // ( { [  and  ) } ]
    if (code === 0x28 || code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if ((code === 0x29 || code === 0x7d || code === 0x5d) && depth > 0) {
      depth -= 1;
    }
  }
  return deepest;
}
