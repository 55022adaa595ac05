/**
 * A character bash and a reader see differently: a control character (a carriage return hides
 * what precedes it on a terminal, and tokenisers disagree about it), a line or paragraph
 * separator, a zero-width or direction-changing format character, or an unusual space.
 *
 * @example
 * const found: InvisibleCharacter = { codePoint: 0x200b, index: 3 };
 */
export interface InvisibleCharacter {
  readonly codePoint: number;
  /** Offset in the command, in UTF-16 code units. */
  readonly index: number;
}

// Tab and line feed are ordinary shell whitespace; everything else in these classes is suspect.
// Variation selectors are combining characters, so they get their own alternative.
const SUSPECT =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}\p{Zs}\u115F\u1160\u3164\uFFA0]|[\uFE00-\uFE0F]/gu;
const ORDINARY = new Set([0x09, 0x0a, 0x20]);

/**
 * Every distinct suspect character in `source`, first occurrence each, in order.
 *
 * @example
 * findInvisibleCharacters('ls;\u200brm'); // [{ codePoint: 0x200b, index: 3 }]
 */
export function findInvisibleCharacters(source: string): InvisibleCharacter[] {
  const seen = new Set<number>();
  const found: InvisibleCharacter[] = [];
  for (const match of source.matchAll(SUSPECT)) {
    const codePoint = match[0].codePointAt(0) ?? 0;
    if (ORDINARY.has(codePoint) || seen.has(codePoint)) continue;
    seen.add(codePoint);
    found.push({ codePoint, index: match.index });
  }
  return found;
}

/**
 * `U+200B` style name of a code point, for messages.
 *
 * @example
 * codePointLabel(0x0d); // 'U+000D'
 */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * `text` with every suspect character written as an escape (`\u{200B}`), so a message shows
 * what a terminal would hide.
 *
 * @example
 * escapeInvisible('ls;\u200brm'); // 'ls;\\u{200B}rm'
 */
export function escapeInvisible(text: string): string {
  return text.replace(SUSPECT, (match) => {
    const codePoint = match.codePointAt(0) ?? 0;
    return ORDINARY.has(codePoint) ? match : `\\u{${codePoint.toString(16).toUpperCase()}}`;
  });
}
