import type { ApprovalRecord, ClaimTicket } from '@tiny-claw/core';

/** Every sentence the gate says, to the model or to the person deciding, in one place. */
export const approvalText = {
  // The paused run's final text, which the session memory keeps and later runs show the model:
  // it never holds the approval id, which only the person deciding is shown.
  suspended: (record: ApprovalRecord): string =>
    [
      'this tool call needs approval',
      `tool=${record.toolName}`,
      `reasons=${record.riskReasons.length > 0 ? record.riskReasons.join('; ') : 'risky tool call'}`,
      `expires_at=${record.expiresAt}`,
    ].join('\n'),
  denied: (reasons: readonly string[]): string =>
    `this tool call was denied by the risk policy: ${reasons.length > 0 ? reasons.join('; ') : 'no reason given'}`,
  noSession: (tool: string): string =>
    `this ${tool} call needs approval, but the run has no session to keep the request in; it was not run`,
  notPausable: (tool: string, reasons: readonly string[]): string =>
    `this ${tool} call needs approval (${reasons.length > 0 ? reasons.join('; ') : 'risky tool call'}), but it was made by a subagent, which cannot wait for a person; it was not run. Report what you would have done instead.`,
  driftedAtLaunch: (path: string): string =>
    `file changed since approval was requested: ${path}; the call was not run. Read the file again and retry if it is still wanted.`,

  toolUnavailable: (id: string, tool: string): string =>
    `approval ${id} is for a ${tool} call, which this agent cannot run (it is not among its tools, or its allow or deny list refuses it). Nothing was decided: the request is still pending; approve it where ${tool} can run.`,
  notFound: (id: string): string =>
    `no approval request ${id} was found; check the id against the pending requests`,
  otherSession: (id: string): string =>
    `approval ${id} belongs to another session; decide it from the session (or chat) that asked for it`,
  otherChat: (id: string): string =>
    `approval ${id} belongs to another chat; decide it in the chat that asked for it`,
  mismatchedRecord: (id: string): string =>
    `approval ${id} is stored under a name that does not match its content; it was changed outside tiny-claw, so it cannot be decided`,
  notAllowed: (actor: string, id: string): string => `${actor} may not decide approval ${id}`,
  handled: (record: ApprovalRecord): string => handledText(record),
  beingDecided: (id: string, ticket: ClaimTicket | undefined): string =>
    ticket && ticket.decision !== 'expire'
      ? `approval ${id} was already handled: ${ticket.actor} decided (${ticket.decision}) at ${ticket.at}`
      : `approval ${id} was already handled by someone else`,
  expired: (record: ApprovalRecord): string =>
    `approval ${record.id} expired at ${record.expiresAt}; the call was not run. Run the task again to get a new request.`,
  clockBehind: (record: ApprovalRecord): string =>
    `approval ${record.id} cannot be decided: the clock reads earlier than when it was requested (${record.createdAt}), so its age cannot be trusted; it counts as expired. Run the task again to get a new request.`,

  checkpointMissing: (id: string, detail: string): string =>
    `approval ${id} cannot be resumed: checkpoint corrupted or missing (${detail}); the run cannot resume and the call was not run`,
  checkpointOtherSession: (id: string): string =>
    `approval ${id} cannot be resumed: its checkpoint belongs to another session; the call was not run`,
  tamperedRecord: (id: string): string =>
    `approval ${id} was changed after it was requested (its tool call no longer matches its hash); the call was not run`,
  givenStateMismatch: (id: string, what: string): string =>
    `approval ${id} cannot be resumed from this run state: it ${what}; pass the state of the run that paused for this request. Nothing was decided.`,
  tamperedCheckpoint: (id: string, what: string): string =>
    `approval ${id} cannot be resumed: the checkpoint ${what}; it was changed after the request, so the call was not run`,
  drifted: (id: string, path: string): string =>
    `approval ${id} cannot be resumed: file changed since approval was requested (${path}); the call was not run. Run the task again to get a new request.`,
};

function handledText(record: ApprovalRecord): string {
  const by = record.decidedBy ? ` by ${record.decidedBy}` : '';
  const at = record.decidedAt ? ` at ${record.decidedAt}` : '';
  switch (record.status) {
    case 'consumed':
      return `approval ${record.id} was already used: approved${by}${at}, and the call has run; it cannot run again`;
    case 'rejected':
      return `approval ${record.id} was already handled: rejected${by}${at}`;
    case 'claimed':
      return `approval ${record.id} was already handled: ${verb(record)}${by}${at}, and it is being carried out`;
    case 'failed':
      return `approval ${record.id} was already handled: ${verb(record)}${by}${at}, but it failed (${record.failure ?? 'unknown'}); nothing ran`;
    case 'unknown_outcome':
      return `approval ${record.id} was already handled: ${verb(record)}${by}${at}, but the process carrying it out stopped before it finished; the call may or may not have run, so it is never run again automatically. Check the workdir, then run the task again if needed.`;
    default:
      return `approval ${record.id} was already handled (status ${record.status})`;
  }
}

function verb(record: ApprovalRecord): string {
  if (record.decision === 'approve') return 'approved';
  if (record.decision === 'reject') return 'rejected';
  return 'decided';
}
