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
  | 'block_anchor';

/**
 * The pipeline order, most exact first. The first strategy with at least one match wins.
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
];

/**
 * How `new_text` must be adapted to what a fuzzy strategy actually matched.
 * - `trim`: old_text's outer whitespace was dropped to find it; drop the same from new_text.
 * - `reindent`: the block sits at indent `to` while old_text used `from`; re-base new_text.
 *
 * @example
 * const adjust: NewTextAdjustment = { kind: 'reindent', from: '', to: '    ' };
 */
export type NewTextAdjustment =
  | { kind: 'trim'; leading: string; trailing: string }
  | { kind: 'reindent'; from: string; to: string };

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
