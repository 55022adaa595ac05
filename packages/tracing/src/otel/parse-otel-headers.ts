// An HTTP header name (RFC 9110 token).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses OTLP exporter headers in the `OTEL_EXPORTER_OTLP_HEADERS` format — `key=value` pairs
 * separated by commas, values URL-encoded — as used by `TINY_CLAW_OTEL_HEADERS`. Strict where the
 * OTel SDK silently drops bad entries, so a typo fails at start-up instead of at the collector.
 * Error messages name the entry's position and key, never its value (values are usually secrets).
 *
 * @example
 * parseOtelHeaders('x-honeycomb-team=abc123,Authorization=Basic%20dXNlcjpwYXNz');
 * // → { 'x-honeycomb-team': 'abc123', Authorization: 'Basic dXNlcjpwYXNz' }
 */
export function parseOtelHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const entries = text.split(',');
  entries.forEach((entry, index) => {
    const position = `entry ${index + 1}`;
    if (entry.trim() === '') {
      // A trailing comma is harmless; an empty pair in the middle is a typo.
      if (index === entries.length - 1 || text.trim() === '') return;
      throw new RangeError(`${position} is empty: expected key=value pairs separated by commas`);
    }
    const separator = entry.indexOf('=');
    if (separator <= 0) {
      throw new RangeError(
        `${position} has no key=value: expected key=value pairs separated by commas`,
      );
    }
    const key = entry.slice(0, separator).trim();
    if (!HEADER_NAME.test(key)) {
      throw new RangeError(`${position}: ${JSON.stringify(key)} is not a valid HTTP header name`);
    }
    let value: string;
    try {
      value = decodeURIComponent(entry.slice(separator + 1).trim());
    } catch {
      throw new RangeError(`${position} (${key}): the value is not valid URL encoding`);
    }
    if (value === '') throw new RangeError(`${position} (${key}): the value is empty`);
    // Node refuses such a header at send time, which would only surface as a failed export.
    if (hasControlCharacter(value)) {
      throw new RangeError(`${position} (${key}): the value contains control characters`);
    }
    headers[key] = value;
  });
  return headers;
}

// Tab is allowed in a header value; every other C0 control and DEL is not.
function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true;
  }
  return false;
}
