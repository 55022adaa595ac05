/**
 * Names of the matcher strategies, in pipeline order.
 *
 * @example
 * const name: StrategyName = 'indentation_flexible';
 */
export type StrategyName =
  | 'exact'
  | 'newline_normalized'
  | 'trimmed'
  | 'line_trimmed'
  | 'indentation_flexible'
  | 'whitespace_normalized'
  | 'block_anchor'
  | 'unicode_normalized'
  | 'escape_normalized';

/**
 * The pipeline order, most exact first. The first strategy with at least one match wins; the
 * last two (`unicode_normalized`, `escape_normalized`) count only with exactly one candidate.
 *
 * @example
 * STRATEGY_ORDER[0]; // 'exact'
 */
export const STRATEGY_ORDER: readonly StrategyName[] = [
  'exact',
  'newline_normalized',
  'trimmed',
  'line_trimmed',
  'indentation_flexible',
  'whitespace_normalized',
  'block_anchor',
  'unicode_normalized',
  'escape_normalized',
];

/**
 * How `new_text` must be adapted to what a fuzzy strategy actually matched.
 * - `trim`: old_text's outer whitespace was dropped to find it; drop the same from new_text.
 * - `reindent`: the block sits at indent `to` while old_text used `from`; re-base new_text.
 * - `lines`: old_text's stray blank lines around its content were dropped and whole lines were
 *   matched (with their line break when `lineBreak`); new_text loses the same kind of blank
 *   lines, is re-based from `from` to `to` and gets the line break back.
 * - `typography`: old_text matched only with Unicode dashes, quotes and spaces read as ASCII;
 *   new_text's head and tail that equal old_text's keep the file's characters (`matched`),
 *   then `next` applies.
 * - `unescape`: old_text matched only with its literal escapes (`\n`, `\t`, `\"`, `\'`, `\\`)
 *   decoded; new_text's escapes of the same `kinds` are decoded too, then `next` applies.
 *
 * @example
 * const adjust: NewTextAdjustment = { kind: 'reindent', from: '', to: '    ' };
 */
export type NewTextAdjustment =
  | { kind: 'trim'; leading: string; trailing: string }
  | { kind: 'reindent'; from: string; to: string }
  | { kind: 'lines'; from: string; to: string; lineBreak: boolean }
  | { kind: 'typography'; oldText: string; matched: string; next?: NewTextAdjustment }
  | { kind: 'unescape'; kinds: string; next?: NewTextAdjustment };

/**
 * One match: offsets into the searched content (`end` exclusive) and its 1-based line.
 *
 * @example
 * const span: MatchSpan = { start: 120, end: 180, line: 7 };
 */
export interface MatchSpan {
  start: number;
  end: number;
  /** 1-based line of `start`, counted the way `read` numbers lines (by `\n`). */
  line: number;
  adjust?: NewTextAdjustment;
}
