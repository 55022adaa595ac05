/** User-facing text of `tiny-claw trace`, gathered in one place. */

export const traceHelp = `Usage:
  tiny-claw trace list [--session NAME] [--json]
  tiny-claw trace show <id|last> [--session NAME] [--json]
  tiny-claw trace view <id|last> [--session NAME] [--out FILE]

Every run writes its decision tree (run → steps → model and tool calls) to
<state dir>/sessions/<session>/traces/<id>.json. These commands find and display those files.

Commands:
  list   List traces, newest first: id, session, start, duration, status, steps, stop reason.
  show   Print one trace as a tree with durations, statuses, tokens, costs and errors.
  view   Write one trace as a self-contained HTML page (no network) and print its path.

'last' is the newest trace of any session, or of --session NAME when given. An id may be shortened
to any prefix that matches one trace. With TINY_CLAW_STATE_URL (state in PostgreSQL), show and view
also find a trace by its full id when another process or replica recorded it there.

Options:
  --session NAME   only this session: a name given to 'tiny-claw run --session' in this workdir,
                   or a full session key as 'trace list' prints it
  --json           print JSON instead of text (list, show)
  --out FILE       where 'view' writes the page (default ./tiny-claw-trace-<id>.html; '-' for stdout)
  -h, --help       show this help

Tracing is on by default (TINY_CLAW_TRACE_MODE=metadata keeps hashes and sizes, never prompts);
TINY_CLAW_TRACE_MODE=off writes no traces.
`;

export const traceText = {
  needsSubcommand: 'trace needs a subcommand: list, show or view',
  unknownSubcommand: (name: string) =>
    `unknown trace subcommand ${JSON.stringify(name)}: expected list, show or view`,
  needsRef: (sub: string) => `trace ${sub} needs a trace id or 'last'`,
  tooManyArgs: (sub: string, extra: string) =>
    `trace ${sub} takes one trace id or 'last', got also ${JSON.stringify(extra)}`,
  listTakesNoArgs: (extra: string) => `trace list takes no arguments, got ${JSON.stringify(extra)}`,
  badRef: (ref: string) =>
    `${JSON.stringify(ref)} is not a trace id: expected 'last' or an id of letters, digits, '-' and '_'`,
  emptyOption: (flag: string) => `${flag} needs a value`,
  noTraces: (stateDir: string, session: string | undefined) =>
    `no traces ${session === undefined ? '' : `for session ${JSON.stringify(session)} `}in ${stateDir}.\n` +
    `Record one with: tiny-claw run "<prompt>"${sessionFlag(session)} ` +
    '(tracing is on unless TINY_CLAW_TRACE_MODE=off).',
  listHint: (session: string | undefined) =>
    `See the trace ids with: tiny-claw trace list${sessionFlag(session)}`,
  skipped: (path: string, reason: string) => `skipped ${path}: ${reason}`,
  wrote: (path: string) => `${path}\n`,
  wroteHint: 'open it in a browser; it loads nothing from the network',
  listHeader: ['TRACE', 'SESSION', 'STARTED', 'DURATION', 'STATUS', 'STEPS', 'STOP', 'RUN'],
  unknownValue: '-',
} as const;

/** ` --session NAME` for a suggested command line, quoted only when the shell would need it. */
function sessionFlag(session: string | undefined): string {
  return session === undefined ? '' : ` --session ${shellQuote(session)}`;
}

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_.-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}
