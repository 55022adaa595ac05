import { createDeadline } from './deadline.js';
import { Haystack } from './haystack.js';
import { levenshteinSimilarity } from './levenshtein.js';
import { hasReadLinePrefix, stripReadLinePrefixes } from './line-prefix.js';
import { splitOldBlock } from './line-window.js';
import { editText } from './strings.js';
import { normalizeEol } from './text-format.js';

/**
 * Limits of the not-found diagnosis.
 *
 * @example
 * DIAGNOSTIC_LIMITS.fallbackBudgetMs; // 50
 */
export const DIAGNOSTIC_LIMITS = {
  /** Budget of the similarity fallback used when no line of old_text occurs in the file. */
  fallbackBudgetMs: 50,
  /** Weight cap of one matching line, so long lines do not drown everything else. */
  maxLineWeight: 80,
  /** Shown lines are cut to this many characters. */
  maxShownChars: 160,
  /** Lines longer than this are skipped by the similarity fallback. */
  maxFallbackLineChars: 1000,
} as const;

/**
 * Where old_text comes closest to the file, and how the first differing line differs.
 *
 * @example
 * const region: ClosestRegion = { line: 40, lineCount: 12, sameLines: 7,
 *   firstDifference: { oldLine: 3, fileLine: 42, expected: '    x', found: '\tx' } };
 */
export interface ClosestRegion {
  /** 1-based first line of the region in the file. */
  line: number;
  lineCount: number;
  /** Lines of old_text equal (after trimming) to the file line at the same position. */
  sameLines: number;
  firstDifference?: {
    /** 1-based line within old_text. */
    oldLine: number;
    /** 1-based line in the file (beyond the end when the file is shorter). */
    fileLine: number;
    expected: string;
    /** `undefined` when the region runs past the end of the file. */
    found: string | undefined;
  };
}

/**
 * Make whitespace visible: a space becomes `·`, a tab `→`, a CR `␍`.
 *
 * @example
 * visibleWhitespace('\tif (a)  '); // '→if·(a)··'
 */
export function visibleWhitespace(text: string): string {
  return text.replace(/[ \t\r]/g, (ch) => (ch === ' ' ? '·' : ch === '\t' ? '→' : '␍'));
}

function shorten(text: string): string {
  const max = DIAGNOSTIC_LIMITS.maxShownChars;
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** Region start voted by lines of old_text that occur (trimmed) in the file. */
function voteForStart(fileKeys: readonly string[], oldKeys: readonly string[]): number | undefined {
  const positions = new Map<string, number[]>();
  oldKeys.forEach((key, j) => {
    if (key === '') return;
    const list = positions.get(key);
    if (list) list.push(j);
    else positions.set(key, [j]);
  });
  const votes = new Map<number, number>();
  for (let i = 0; i < fileKeys.length; i += 1) {
    const key = fileKeys[i] as string;
    const js = key === '' ? undefined : positions.get(key);
    if (js === undefined) continue;
    const weight = Math.min(key.length, DIAGNOSTIC_LIMITS.maxLineWeight);
    for (const j of js) votes.set(i - j, (votes.get(i - j) ?? 0) + weight);
  }
  let best: number | undefined;
  let bestVotes = 0;
  for (const [start, count] of votes) {
    if (count > bestVotes || (count === bestVotes && best !== undefined && start < best)) {
      best = start;
      bestVotes = count;
    }
  }
  return best;
}

/** Start of the file line most similar to old_text's first non-blank line, within a budget. */
function similarStart(fileKeys: readonly string[], oldKeys: readonly string[]): number | undefined {
  const j = oldKeys.findIndex((key) => key !== '');
  const probe = oldKeys[j];
  if (probe === undefined || probe.length > DIAGNOSTIC_LIMITS.maxFallbackLineChars)
    return undefined;
  const deadline = createDeadline(DIAGNOSTIC_LIMITS.fallbackBudgetMs);
  let best: number | undefined;
  let bestSimilarity = 0.5;
  for (let i = 0; i < fileKeys.length; i += 1) {
    if ((i & 255) === 0 && deadline.expired()) break;
    const key = fileKeys[i] as string;
    if (key === '' || key.length > DIAGNOSTIC_LIMITS.maxFallbackLineChars) continue;
    // Lines of very different length cannot reach the threshold; skip them cheaply.
    if (Math.abs(key.length - probe.length) > probe.length) continue;
    const similarity = levenshteinSimilarity(key, probe, bestSimilarity);
    if (similarity > bestSimilarity) {
      best = i - j;
      bestSimilarity = similarity;
    }
  }
  return best;
}

/**
 * Find the region of `content` that old_text most resembles: each line of old_text that occurs
 * in the file (trimmed) votes for the region start it implies; with no such line, the file line
 * most similar to old_text's first line wins (bounded by a 50 ms budget). O(file lines + votes).
 *
 * @example
 * findClosestRegion('a\n  b\nc\n', 'a\n    b\nc');
 * // { line: 1, lineCount: 3, sameLines: 3, firstDifference: { oldLine: 2, fileLine: 2, expected: '    b', found: '  b' } }
 */
export function findClosestRegion(content: string, oldText: string): ClosestRegion | undefined {
  const hay = new Haystack(content);
  const normalized = normalizeEol(oldText);
  // Prefixes copied from `read` would hide every real line from the vote.
  const oldLines = splitOldBlock(stripReadLinePrefixes(normalized) ?? normalized).lines;
  const oldKeys = oldLines.map((line) => line.trim());
  const fileKeys = hay.keys('trim', (line) => line.trim());
  const voted = voteForStart(fileKeys, oldKeys) ?? similarStart(fileKeys, oldKeys);
  if (voted === undefined) return undefined;
  const fileLines = hay.lines;
  // A trailing line break leaves an empty last entry that is not a real line.
  const lineTotal = content.endsWith('\n') ? fileLines.length - 1 : fileLines.length;
  const start = Math.max(0, Math.min(voted, Math.max(0, lineTotal - 1)));
  let sameLines = 0;
  let firstDifference: ClosestRegion['firstDifference'];
  for (let j = 0; j < oldLines.length; j += 1) {
    const expected = oldLines[j] as string;
    const found = start + j < lineTotal ? fileLines[start + j] : undefined;
    if (found !== undefined && found.trim() === (oldKeys[j] as string)) sameLines += 1;
    if (firstDifference === undefined && found !== expected) {
      firstDifference = { oldLine: j + 1, fileLine: start + j + 1, expected, found };
    }
  }
  const region: ClosestRegion = { line: start + 1, lineCount: oldLines.length, sameLines };
  if (firstDifference) region.firstDifference = firstDifference;
  return region;
}

/**
 * The not-found message for the model: what failed, the closest candidate region with its line
 * number, the first differing line with whitespace made visible, and the reminder to drop `N: `
 * prefixes copied from `read` (stressed when old_text seems to contain them).
 *
 * @example
 * describeNotFound('src/a.ts', content, oldText, 'not_found');
 * // 'edit could not find old_text in src/a.ts …\nClosest region: line 40 …\n  old_text: ····x\n  file:     →x\n…'
 */
export function describeNotFound(
  displayPath: string,
  content: string,
  oldText: string,
  reason: 'not_found' | 'time_budget_exceeded',
): string {
  const parts = [
    reason === 'time_budget_exceeded'
      ? editText.notFoundBudget(displayPath)
      : editText.notFound(displayPath),
  ];
  const region = findClosestRegion(content, oldText);
  if (region === undefined) {
    parts.push(editText.noCloseRegion);
  } else {
    parts.push(editText.closestRegion(region.line, region.lineCount, region.sameLines));
    const diff = region.firstDifference;
    if (diff) {
      parts.push(
        editText.firstDifference(diff.oldLine, diff.fileLine),
        `  old_text: ${shorten(visibleWhitespace(diff.expected))}`,
        diff.found === undefined
          ? `  file:     ${editText.pastEndOfFile}`
          : `  file:     ${shorten(visibleWhitespace(diff.found))}`,
      );
    }
  }
  parts.push(hasReadLinePrefix(oldText) ? editText.prefixDetected : editText.tips);
  return parts.join('\n');
}
