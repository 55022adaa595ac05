import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolOutput } from '@tiny-claw/core';

/**
 * The observation for a call that got no usable answer: the run's cancellation (`cancelled`), the
 * call's time limit (`timeout`), a server that has gone away (`execution_error`,
 * `server_unavailable`), an answer that does not fit the protocol (`execution_error`,
 * `invalid_response`), or an error the server sent (`execution_error`, `server_error`). Never
 * thrown: the run goes on.
 *
 * @example
 * failureOutput(new McpError(ErrorCode.RequestTimeout, 'timed out'), { server: 'a', tool: 'x', timeoutMs: 1000, signal, closed: false });
 */
export function failureOutput(
  error: unknown,
  call: {
    server: string;
    tool: string;
    timeoutMs: number;
    signal: AbortSignal;
    /** Whether the connection to the server has closed (the process exited, the session ended). */
    closed: boolean;
  },
): ToolOutput {
  const origin = { server: call.server };
  const where = `MCP server "${call.server}", tool "${call.tool}"`;
  if (call.signal.aborted) {
    return {
      content: `${where}: the call was cancelled with the run.`,
      isError: true,
      failure: { kind: 'cancelled', code: 'cancelled' },
      ...origin,
    };
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return {
      content: `${where}: no answer within ${call.timeoutMs} ms; the call was cancelled.`,
      isError: true,
      failure: {
        kind: 'timeout',
        code: 'mcp_timeout',
        advice: 'The server is slow or stuck: ask for less, or go on without this tool.',
      },
      ...origin,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (call.closed || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
    return {
      content: `${where}: the server stopped before answering (${message}).`,
      isError: true,
      failure: {
        kind: 'execution_error',
        code: 'server_unavailable',
        advice: `The server "${call.server}" is not running any more: do not call its tools again in this run.`,
      },
      ...origin,
    };
  }
  if (error instanceof McpError) {
    const invalid = error.code === ErrorCode.InvalidParams;
    return {
      content: `${where}: the server answered with an error: ${message}`,
      isError: true,
      failure: invalid
        ? { kind: 'invalid_arguments', code: 'server_rejected_arguments' }
        : { kind: 'execution_error', code: 'server_error' },
      ...origin,
    };
  }
  return {
    content: `${where}: the answer could not be used (${message}).`,
    isError: true,
    failure: { kind: 'execution_error', code: 'invalid_response' },
    ...origin,
  };
}
