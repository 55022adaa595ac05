/** User- and model-facing text of the executor, kept in one place for a future locale. */
export const executorText = {
  cancelled: 'tool call cancelled: the run was cancelled before this call finished',
  approvalRequired: 'this tool call requires human approval',
  unexpectedFailure: (tool: string, message: string): string =>
    `tool ${tool} failed unexpectedly: ${message}`,
};
