/**
 * A line-ending style.
 *
 * @example
 * const eol: EolStyle = '\r\n';
 */
export type EolStyle = '\r\n' | '\n' | '\r';

/**
 * What an edit must give back unchanged: the byte-order mark, the line-ending style and whether
 * the file ends with a line break.
 *
 * @example
 * const format: TextFormat = { bom: true, eol: '\r\n', mixedEol: false, trailingNewline: true };
 */
export interface TextFormat {
  /** The file started with a UTF-8 BOM (U+FEFF), which is stripped before matching. */
  bom: boolean;
  /** The most common line ending; `\n` when the file has none. */
  eol: EolStyle;
  /** More than one line-ending style occurs in the file. */
  mixedEol: boolean;
  trailingNewline: boolean;
}

const BOM = '\uFEFF';

/**
 * Split a leading BOM off decoded text.
 *
 * @example
 * splitBom('\uFEFFhello'); // { bom: true, body: 'hello' }
 */
export function splitBom(text: string): { bom: boolean; body: string } {
  return text.startsWith(BOM) ? { bom: true, body: text.slice(1) } : { bom: false, body: text };
}

/**
 * Count the line endings of `text` by style.
 *
 * @example
 * countEols('a\r\nb\nc'); // { crlf: 1, lf: 1, cr: 0 }
 */
export function countEols(text: string): { crlf: number; lf: number; cr: number } {
  let crlf = 0;
  let cr = 0;
  let lf = 0;
  // Fast path: most files have no CR at all, and indexOf is far cheaper than a char loop.
  if (!text.includes('\r')) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lf += 1;
    return { crlf, lf, cr };
  }
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 13) {
      if (text.charCodeAt(i + 1) === 10) {
        crlf += 1;
        i += 1;
      } else {
        cr += 1;
      }
    } else if (code === 10) {
      lf += 1;
    }
  }
  return { crlf, lf, cr };
}

/**
 * The dominant line ending of `text` (ties prefer LF, then CRLF), or `undefined` if it has none.
 *
 * @example
 * detectEol('a\r\nb\r\n'); // '\r\n'
 * detectEol('one line'); // undefined
 */
export function detectEol(text: string): EolStyle | undefined {
  const { crlf, lf, cr } = countEols(text);
  if (crlf + lf + cr === 0) return undefined;
  if (lf >= crlf && lf >= cr) return '\n';
  return crlf >= cr ? '\r\n' : '\r';
}

/**
 * Detect the format of a file's decoded text (BOM included, if any).
 *
 * @example
 * detectTextFormat('\uFEFFa\r\nb'); // { bom: true, eol: '\r\n', mixedEol: false, trailingNewline: false }
 */
export function detectTextFormat(text: string): TextFormat {
  const { bom, body } = splitBom(text);
  const counts = countEols(body);
  const styles = [counts.crlf, counts.lf, counts.cr].filter((count) => count > 0).length;
  return {
    bom,
    eol: detectEol(body) ?? '\n',
    mixedEol: styles > 1,
    trailingNewline: body.endsWith('\n') || body.endsWith('\r'),
  };
}

/**
 * Turn CRLF and lone CR into LF.
 *
 * @example
 * normalizeEol('a\r\nb\rc'); // 'a\nb\nc'
 */
export function normalizeEol(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/**
 * Give every line ending of `text` the style `eol`.
 *
 * @example
 * convertEol('a\nb\r\nc', '\r\n'); // 'a\r\nb\r\nc'
 */
export function convertEol(text: string, eol: EolStyle): string {
  const lf = normalizeEol(text);
  return eol === '\n' ? lf : lf.replaceAll('\n', eol);
}

/**
 * Make `text` end with a line break (in style `eol`) or not. Empty text stays empty: a file
 * emptied by an edit gets no lone newline.
 *
 * @example
 * withTrailingNewline('a\nb', true, '\n'); // 'a\nb\n'
 * withTrailingNewline('a\r\nb\r\n', false, '\r\n'); // 'a\r\nb'
 */
export function withTrailingNewline(text: string, trailing: boolean, eol: EolStyle): string {
  const has = text.endsWith('\n') || text.endsWith('\r');
  if (trailing === has || text.length === 0) return text;
  if (trailing) return text + eol;
  return text.endsWith('\r\n') ? text.slice(0, -2) : text.slice(0, -1);
}

/**
 * Re-apply the BOM and trailing-newline state of `format` to an edited body.
 *
 * @example
 * restoreTextFormat('x\r\n', { bom: true, eol: '\r\n', mixedEol: false, trailingNewline: false });
 * // '\uFEFFx'
 */
export function restoreTextFormat(body: string, format: TextFormat): string {
  const text = withTrailingNewline(body, format.trailingNewline, format.eol);
  return format.bom ? BOM + text : text;
}
