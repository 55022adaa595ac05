const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escape text for HTML element content and quoted attribute values.
 *
 * @example
 * escapeHtml('<b title="x">'); // '&lt;b title=&quot;x&quot;&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * JSON that can sit inside a `<script type="application/json">` element: `<`, `>` and `&` become
 * `\u003c`-style escapes, so no `</script>` or `<!--` in the data can end or confuse the element,
 * and U+2028/U+2029 are escaped for older JavaScript parsers. `JSON.parse` reads it back unchanged.
 *
 * @example
 * scriptSafeJson({ a: '</script>' }); // '{"a":"\\u003c/script\\u003e"}'
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
