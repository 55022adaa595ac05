/** Text the loop shows the model or the user, kept in one place for a future locale. */
export const loopText = {
  emptyTurnNudge:
    'Your last reply was empty: no text and no tool calls. Continue the task with a tool call, or give your final answer.',
  emptyTurnsStop: (count: number): string =>
    `The model returned ${count} empty replies in a row; the run was stopped.`,
  toolsNotAllowed: (phase: string): string =>
    `Tool calls are not allowed in the ${phase} phase; this call was not executed.`,
  cancelled: 'The run was cancelled.',
  providerFailed: (message: string): string => `Model provider error: ${message}`,
  memoryUnreadable: (detail: string): string =>
    `memory could not be read, continuing without it: ${detail}`,
  memoryUnwritable: (detail: string): string => `memory could not be written: ${detail}`,
  traceUnwritable: (detail: string): string => `trace could not be written: ${detail}`,
  traceUnindexed: (detail: string): string => `trace could not be indexed: ${detail}`,
  rejected: (actor: string, reason: string | undefined): string =>
    `rejected by ${actor}: ${reason?.trim() || 'no reason given'}. The tool call was not executed.`,
  stillWaiting: (approvalId: string): string =>
    `A tool call of this turn still waits for a decision on approval ${approvalId}; the run goes on once it is decided.`,
  noWaitingCall: (approvalId: string): string =>
    `Approval ${approvalId} cannot be resumed: its checkpoint holds no waiting tool call. Nothing was executed.`,
  /** What the session memory keeps of that: approval ids are for the person, never the model. */
  noWaitingCallMemory:
    'The approved call could not be resumed: its checkpoint holds no waiting tool call. Nothing was executed.',
};
