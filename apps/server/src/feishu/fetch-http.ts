import type { HttpInstance, HttpRequestOptions } from '@larksuiteoapi/node-sdk';

/** How long one call to the open API may take before it counts as failed (and may be retried). */
export const FEISHU_HTTP_TIMEOUT_MS = 15_000;

/**
 * A failed HTTP call, shaped like the SDK's usual HTTP client errors (`response.status`,
 * `response.headers`, `response.data`), so both the SDK and this server read it the same way.
 *
 * @example
 * if (error instanceof FeishuHttpError) console.log(error.response?.status);
 */
export class FeishuHttpError extends Error {
  readonly response: { status: number; headers: Headers; data: unknown } | undefined;

  constructor(message: string, response?: { status: number; headers: Headers; data: unknown }) {
    super(message);
    this.name = 'FeishuHttpError';
    this.response = response;
  }
}

type Options = HttpRequestOptions<unknown> & {
  paramsSerializer?: unknown;
  $return_headers?: boolean;
};

/**
 * The SDK's HTTP client replaced by Node's `fetch` with a time limit on every call: the SDK's
 * default client waits for ever on a connection that stops answering, and one such send would
 * hold its chat (and a run slot) until the process restarts. Answers are returned as the SDK's
 * client returns them (the parsed body, or body and headers when asked); a non-2xx answer throws a
 * {@link FeishuHttpError} carrying status, headers (`x-ogw-ratelimit-reset`) and body.
 *
 * @example
 * new lark.Client({ appId, appSecret, httpInstance: fetchHttpInstance() });
 */
export function fetchHttpInstance(
  options: { timeoutMs?: number; fetch?: typeof fetch } = {},
): HttpInstance {
  const timeoutMs = options.timeoutMs ?? FEISHU_HTTP_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;

  const request = async (opts: Options): Promise<unknown> => {
    const url = new URL(String(opts.url));
    const query = serialize(opts.params, opts.paramsSerializer);
    if (query) url.search = url.search ? `${url.search}&${query}` : query;
    const headers = new Headers();
    for (const [name, value] of Object.entries(opts.headers ?? {})) {
      if (value !== undefined && value !== null) headers.set(name, String(value));
    }
    let body: string | undefined;
    if (opts.data !== undefined && opts.data !== null) {
      if (typeof opts.data === 'string') body = opts.data;
      else {
        body = JSON.stringify(opts.data);
        if (!headers.has('content-type'))
          headers.set('content-type', 'application/json; charset=utf-8');
      }
    }
    const method = (opts.method ?? 'GET').toUpperCase();
    let response: Response;
    try {
      response = await doFetch(url, {
        method,
        headers,
        ...(body === undefined || method === 'GET' ? {} : { body }),
        signal: AbortSignal.timeout(opts.timeout ?? timeoutMs),
      });
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${opts.timeout ?? timeoutMs} ms`
          : String(error);
      throw new FeishuHttpError(`${method} ${url.origin}${url.pathname} failed: ${reason}`);
    }
    const text = await response.text();
    let data: unknown = text;
    try {
      data = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON (a proxy's error page): kept as text.
    }
    if (!response.ok) {
      throw new FeishuHttpError(
        `${method} ${url.origin}${url.pathname} answered HTTP ${response.status}`,
        {
          status: response.status,
          headers: response.headers,
          data,
        },
      );
    }
    return opts.$return_headers ? { data, headers: Object.fromEntries(response.headers) } : data;
  };

  const withBody =
    (method: string) =>
    (url: string, data?: unknown, opts: Options = {}) =>
      request({ ...opts, url, method, data });
  const withoutBody =
    (method: string) =>
    (url: string, opts: Options = {}) =>
      request({ ...opts, url, method });
  return {
    request: (opts) => request(opts as Options),
    get: withoutBody('GET'),
    delete: withoutBody('DELETE'),
    head: withoutBody('HEAD'),
    options: withoutBody('OPTIONS'),
    post: withBody('POST'),
    put: withBody('PUT'),
    patch: withBody('PATCH'),
  } as HttpInstance;
}

function serialize(params: unknown, serializer: unknown): string {
  if (params === undefined || params === null) return '';
  if (typeof serializer === 'function')
    return String((serializer as (p: unknown) => string)(params));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  return search.toString();
}
