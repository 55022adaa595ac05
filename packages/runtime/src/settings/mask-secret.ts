/** Below this length a partial mask would reveal too much of the secret, so it is hidden whole. */
const MIN_PARTIAL_MASK_LENGTH = 20;

/**
 * Masks a secret for display: the first 3 and last 4 characters of a long value, `****` for a
 * short one, `(unset)` when there is none.
 *
 * @example
 * maskSecret('sk-proj-0123456789abcdefabcd'); // → 'sk-…abcd'
 * maskSecret('short');                        // → '****'
 * maskSecret(undefined);                      // → '(unset)'
 */
export function maskSecret(value: string | undefined): string {
  if (value === undefined || value === '') return '(unset)';
  if (value.length < MIN_PARTIAL_MASK_LENGTH) return '****';
  return `${value.slice(0, 3)}…${value.slice(-4)}`;
}

/** A URL in free text: scheme, `://`, then everything up to a blank or a quote. */
const URL_IN_TEXT = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>]+/g;
/** The `user:password@` part right after `scheme://`, up to the last `@` of the authority. */
const USERINFO = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/;

/**
 * Hides the secrets a URL can carry, in every URL found in `text`: the `user:password@` part
 * becomes `***@`, and the value of every query parameter (and of every fragment parameter, where
 * some services put tokens) becomes `***`, keeping the names so the URL stays recognisable.
 * Works on text rather than a parsed URL so that a value which is not a valid URL is still safe to
 * show in an error message.
 *
 * @example
 * redactUrlCredentials('https://me:hunter2@proxy.local/v1'); // → 'https://***@proxy.local/v1'
 * redactUrlCredentials('http://h/v1?api_key=abc&v=2');       // → 'http://h/v1?api_key=***&v=***'
 */
export function redactUrlCredentials(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => {
    const withoutUserinfo = url.replace(USERINFO, '$1***@');
    const queryStart = withoutUserinfo.search(/[?#]/);
    if (queryStart === -1) return withoutUserinfo;
    const head = withoutUserinfo.slice(0, queryStart);
    const tail = withoutUserinfo.slice(queryStart).replace(/([?#&;])([^?#&;]*)/g, maskParameter);
    return head + tail;
  });
}

/** `name=value` → `name=***`; a bare `value` (it may be a token on its own) → `***`. */
function maskParameter(_match: string, separator: string, parameter: string): string {
  if (parameter === '') return separator;
  const equals = parameter.indexOf('=');
  if (equals === -1) return `${separator}***`;
  return equals === parameter.length - 1
    ? `${separator}${parameter}`
    : `${separator}${parameter.slice(0, equals + 1)}***`;
}
