/**
 * Every user-facing string of this package, in one place so a `zh` locale can be added later.
 * Error messages are one line and start with {@link text.failedPrefix}.
 *
 * @example
 * throw new Error(text.missingApiKey);
 *
 * @module
 */
export const text = {
  /** Start of every `ProviderError` message this package throws. */
  failedPrefix: 'Claude request failed:',
  missingApiKey:
    'ANTHROPIC_API_KEY is required for the claude provider (set it, or pass `apiKey`).',
  missingModel:
    'A model name is required for the claude provider (set TINY_CLAW_MODEL, or pass `model`).',
  invalidNumber: (name: string, value: unknown, rule: string): string =>
    `Invalid claude provider option ${name}=${String(value)}: expected ${rule}.`,

  /** Sent as the user turn when the history has none where the API needs one. */
  placeholderUserTurn: '(continue)',
  /** How a tool call is written into history when the request carries no tool definitions. */
  toolCallAsText: (name: string, id: string, args: string): string =>
    `[tool call ${name} (id ${id}) with arguments ${args}]`,
  /** How a tool result is written into history when the request carries no tool definitions. */
  toolResultAsText: (name: string, id: string, isError: boolean, content: string): string =>
    `[${isError ? 'error ' : ''}result of tool ${name} (id ${id})]\n${content}`,

  auth: 'authentication failed; check ANTHROPIC_API_KEY (the key was rejected or lacks access)',
  notFound: (model: string, baseUrl: string): string =>
    `model "${model}" or endpoint not found at ${baseUrl}; check TINY_CLAW_MODEL and ANTHROPIC_BASE_URL`,
  contextLength: 'the prompt exceeds the model context window',
  badRequest: 'the API rejected the request',
  rateLimit: 'rate limited, retries exhausted',
  server: 'server error, retries exhausted',
  timeout: (ms: number): string => `no response within ${ms} ms, retries exhausted`,
  connection: (baseUrl: string): string => `connection to ${baseUrl} failed, retries exhausted`,
  invalidResponse: 'the API answered with something that is not a Messages response',
  unknown: 'unexpected error',

  /** The HTTP exchange succeeded (200) but its event stream did not finish. */
  incompleteStream: '200 incomplete stream',
  streamCut: 'the response stream ended before message_stop',
  streamStalled: (ms: number): string => `the response stream sent nothing for ${ms} ms`,
  streamError: (type: string): string => `the response stream reported ${type}`,
  streamGarbled: 'the response stream carried an undecodable event',
  streamAttempts: (attempts: number): string =>
    `no tool call was taken from it; gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}`,

  argumentsNotJson: (detail: string): string => `invalid JSON (${detail})`,
  argumentsNotObject: (kind: string): string => `arguments must be a JSON object, got ${kind}`,
  argumentsNonFinite: (path: string): string =>
    `arguments contain a number JSON cannot represent (Infinity or NaN) at ${path}`,
  argumentsTooDeep: (limit: number): string => `arguments nest deeper than ${limit} levels`,
  argumentsTruncated:
    'the model reached max_tokens while writing these arguments, so they are truncated; retry with a smaller input',
} as const;
