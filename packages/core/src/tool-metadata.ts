/**
 * A tool's own details about one call — an exit code, the lines shown, the sandbox used — for
 * people, logs and the tool's own tests. An open record on purpose: no other package (core
 * included) branches on it. Whatever another package acts on is a typed field: whether the call
 * failed is `ToolOutput.isError`, how it failed is `ToolOutput.failure`.
 *
 * @example
 * const metadata: ToolMetadata = { exit_code: 0, stdout_bytes: 12 };
 */
export interface ToolMetadata {
  [key: string]: unknown;
}
