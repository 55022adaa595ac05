/** User-facing text of approvals in the CLI (`run` pausing, the prompt, `tiny-claw approvals`). */

/** The question asked in a terminal when a run pauses. */
export const approvalQuestion = 'Approve? [y]es / [n]o / n <reason>: ';

export const approvalsText = {
  needsSubcommand: 'approvals needs a subcommand: list, show, approve or reject',
  unknownSubcommand: (name: string) =>
    `unknown approvals subcommand ${JSON.stringify(name)}: expected list, show, approve or reject`,
  needsId: (sub: string) =>
    `approvals ${sub} needs an approval id (see them with 'tiny-claw approvals list')`,
  tooManyArgs: (sub: string, extra: string) =>
    `approvals ${sub} takes one approval id, got also ${JSON.stringify(extra)}`,
  listTakesNoArgs: (extra: string) =>
    `approvals list takes no arguments, got ${JSON.stringify(extra)}`,
  badStatus: (value: string, statuses: readonly string[]) =>
    `--status ${JSON.stringify(value)} is not a status: expected ${statuses.join(', ')}`,
  emptyOption: (flag: string) => `${flag} needs a value`,
  badId: (id: string) =>
    `${JSON.stringify(id.length > 80 ? `${id.slice(0, 77)}...` : id)} is not an approval id: an id has 16 to 64 letters, digits, "_" or "-"; copy it exactly as 'tiny-claw approvals list' shows it`,
  emptyReason: 'the rejection reason is empty: leave it out, or say why in words',
  approvalsOff:
    'approvals are off (TINY_CLAW_APPROVAL_PROVIDER=off), so no request can be decided: set TINY_CLAW_APPROVAL_PROVIDER=auto (or cli) to approve or reject it',
  notFound: (id: string, stateDir: string) =>
    `no approval request ${id} in ${stateDir}; see the requests with 'tiny-claw approvals list'`,
  none: (stateDir: string, filter: string) =>
    `no approval requests${filter} in ${stateDir}. Requests appear when a run pauses on a risky tool call.`,
  listHeader: ['ID', 'STATUS', 'TOOL', 'CREATED', 'SESSION', 'REASON'],
  expiredSuffix: ' (expired)',
  noReason: 'risky tool call',

  // The inline prompt.
  unrecognised: (offers: { session: boolean; project: boolean }) =>
    `answer 'y' to approve, 'n' to reject, or 'n' followed by a reason${
      offers.session ? ", 'a' to approve and not ask again in this session" : ''
    }${offers.project ? ", 'p' to approve and keep a rule for this project" : ''}`,
  alwaysHeader: 'or approve and remember:',
  alwaysSession: (rules: readonly string[]) =>
    `  [a]lways in this session (until this process ends): ${rules.join('; ')}`,
  alwaysProject: (rules: readonly string[], file: string) =>
    `  [p]roject: always in this workdir, added to ${file}: ${rules.join('; ')}`,
  keptForSession: (rules: readonly string[]) => `kept for this session: ${rules.join('; ')}`,
  keptInFile: (rules: readonly string[], file: string) =>
    rules.length === 0
      ? `${file} already holds this rule`
      : `added to ${file}: ${rules.join('; ')}`,
  notKept: (why: string) => `the rule was not kept (${why}); approving this call once`,
  leftPending: 'no decision; the request stays pending.',
  deciding: (decision: 'approve' | 'reject', id: string, actor: string) =>
    `${decision === 'approve' ? 'approving' : 'rejecting'} ${id} as ${actor}`,

  // A run that stopped paused.
  pausedHeader: (tool: string, id: string) =>
    `tiny-claw: paused — ${tool} needs approval (request ${id})`,
  pausedReasons: 'why:',
  pausedExpires: (at: string) => `expires: ${at}`,
  pausedApprove: (command: string) => `approve: ${command}`,
  pausedReject: (command: string) => `reject:  ${command}`,
  pausedHint: 'nothing ran; the run continues from here once the request is decided.',

  // A request shown to the person deciding.
  requestHeader: (tool: string, id: string) => `⏸ ${tool} needs approval · ${id}`,
  requestReason: 'why',
  requestExpires: 'expires',
  requestRequested: 'asked by',
  expiresIn: (ms: number) =>
    ms <= 0
      ? 'expired'
      : ms < 60_000
        ? 'in less than a minute'
        : ms < 7_200_000
          ? `in ${Math.round(ms / 60_000)} min`
          : `in ${Math.round(ms / 3_600_000)} h`,
  newFile: (path: string) => `new file ${path}`,
  outsideWorkdir: (path: string) =>
    `${path} resolves outside the workdir; its current content is not shown (the tool refuses such a path)`,
  notRegularFile: (path: string) =>
    `${path} is not a regular file; its current content is not shown`,
  tooLarge: (path: string, bytes: number) =>
    `${path} is too large to compare (${bytes} bytes); the new content is shown in full below`,
  unreadable: (path: string, why: string) =>
    `${path} cannot be read (${why}); only the new content is shown`,
  noChange: 'no change: the new content is the same as the file',
  diffTooSlow: 'the change is too large to show as a diff; see the full arguments with --json',
  moreLines: (count: number, id: string) =>
    `… ${count} more lines (the full arguments: tiny-claw approvals show ${id} --json)`,
  replaceAll: 'every occurrence is replaced (replace_all)',
  commandLabel: 'command',
  runsLabel: 'runs',
  analysisLabel: 'analysis',
  nestedIn: (origin: readonly string[]) => ` (in ${origin.join(' › ')})`,
  argumentsLabel: 'arguments',
} as const;

export const showText = {
  fields: {
    id: 'id',
    status: 'status',
    tool: 'tool',
    session: 'session',
    workdir: 'workdir',
    requested: 'requested',
    expires: 'expires',
    decided: 'decided',
    reason: 'reason',
    failure: 'failure',
    completed: 'completed',
    checkpoint: 'checkpoint',
    callHash: 'call hash',
    reasons: 'reasons',
    files: 'files',
    arguments: 'arguments',
  },
  requestedBy: (by: string, at: string) => `${at} by ${by}`,
  decidedBy: (decision: string, by: string, at: string) => `${decision} by ${by} at ${at}`,
  fileState: (hash: string | null) =>
    hash === null ? 'did not exist' : hash.length === 64 ? `sha256 ${hash.slice(0, 16)}…` : hash,
} as const;

/** ` --session NAME --workdir DIR` for a suggested command, quoted only when the shell needs it. */
export function scopeFlags(scope: {
  session?: string | undefined;
  workdir?: string | undefined;
}): string {
  const session = scope.session === undefined ? '' : ` --session ${shellQuote(scope.session)}`;
  const workdir = scope.workdir === undefined ? '' : ` --workdir ${shellQuote(scope.workdir)}`;
  return `${session}${workdir}`;
}

/** A word as the shell reads it back unchanged: bare when safe, else single-quoted. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}
