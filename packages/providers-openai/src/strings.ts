/**
 * Every user-facing sentence of this package, in one place so a `zh` locale can be added later.
 * Each builder returns one line; callers pass already-scrubbed upstream text.
 *
 * @example
 * text.auth(401, 'Incorrect API key provided: [redacted]');
 *
 * @module
 */

const PREFIX = 'OpenAI request failed:';

/** Append `: detail` only when there is a detail worth showing. */
function withDetail(head: string, detail: string): string {
  return detail === '' ? head : `${head}: ${detail}`;
}

/**
 * The message builders. `status` is the HTTP status; `where` names the model and endpoint.
 *
 * @example
 * text.notFound(404, 'gpt-x', 'https://api.openai.com/v1', 'The model does not exist');
 */
export const text = {
  auth: (status: number, detail: string) =>
    withDetail(
      `${PREFIX} ${status} the API key was rejected; check OPENAI_API_KEY (and OPENAI_BASE_URL if you use a compatible server)`,
      detail,
    ),
  notFound: (status: number, model: string, baseUrl: string, detail: string) =>
    withDetail(
      `${PREFIX} ${status} not found; check the model "${model}" and the base URL ${baseUrl}`,
      detail,
    ),
  contextLength: (status: number, model: string, detail: string) =>
    withDetail(`${PREFIX} ${status} the request is too long for model "${model}"`, detail),
  badRequest: (status: number, detail: string) =>
    withDetail(`${PREFIX} ${status} bad request`, detail),
  rateLimit: (status: number, retries: number, detail: string) =>
    withDetail(`${PREFIX} ${status} rate limited (${plural(retries, 'retry', 'retries')})`, detail),
  server: (status: number, retries: number, detail: string) =>
    withDetail(`${PREFIX} ${status} server error (${plural(retries, 'retry', 'retries')})`, detail),
  otherStatus: (status: number, detail: string) => withDetail(`${PREFIX} ${status}`, detail),
  connection: (baseUrl: string, retries: number, detail: string) =>
    withDetail(
      `${PREFIX} no HTTP status, could not connect to ${baseUrl} (${plural(retries, 'retry', 'retries')})`,
      detail,
    ),
  timeout: (baseUrl: string, timeoutMs: number, retries: number) =>
    `${PREFIX} no HTTP status, ${baseUrl} did not answer within ${timeoutMs} ms (${plural(retries, 'retry', 'retries')})`,
  incompleteStream: (attempts: number, reason: string) =>
    `${PREFIX} 200 the response stream was incomplete after ${plural(attempts, 'attempt', 'attempts')} (${reason}); no tool call from it was used`,
  invalidResponse: (detail: string) => `${PREFIX} 200 the response could not be used: ${detail}`,
  missingToolCallId: (index: number) =>
    `${PREFIX} no HTTP status, the request was not sent: message ${index} has role "tool" but no toolCallId`,
  unknownRole: (index: number, role: string) =>
    `${PREFIX} no HTTP status, the request was not sent: message ${index} has unknown role ${JSON.stringify(role)}`,
  unknown: (detail: string) => withDetail(`${PREFIX} no HTTP status, unexpected error`, detail),

  // Reasons a stream is judged incomplete (inserted into `incompleteStream`).
  streamEndedEarly: 'the connection closed before a finish_reason arrived',
  streamStalled: (idleMs: number) => `no data for ${idleMs} ms`,
  streamErrored: (detail: string) => `the server sent an error mid-stream: ${detail}`,
  streamBroken: (detail: string) => `the stream broke: ${detail}`,

  // Why a tool call's arguments could not be used (become `argumentsError`).
  argsInvalidJson: (error: string, raw: string) =>
    `the arguments are not valid JSON (${error}); received: ${raw}`,
  argsNotObject: (kind: string) => `the arguments must be a JSON object, not ${kind}`,
  argsNonFinite: 'the arguments contain a number that is out of range (Infinity or NaN)',
  argsTruncated:
    'the response hit the output token limit (finish_reason "length") while this tool call was being written, so its arguments are incomplete',
  noChoices: 'it has no choices',
  notJson: 'the body is not valid JSON',
};

/**
 * `1 retry`, `2 retries`.
 *
 * @example
 * plural(2, 'attempt', 'attempts'); // '2 attempts'
 */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
