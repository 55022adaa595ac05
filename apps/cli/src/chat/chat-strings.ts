/** User-facing strings of `tiny-claw chat` and `tiny-claw sessions`. */
export const chatText = {
  prompt: '› ',
  continuation: '… ',
  exitHint: '(press Ctrl-C again or Ctrl-D to leave)',
  notTerminal:
    "chat needs a terminal (stdin is not one): pipe a prompt to 'tiny-claw run -' or pass it as 'tiny-claw run \"<prompt>\"' instead",
  loading: 'starting',
  thinking: 'thinking',
  welcome: (session: string, mode: string) =>
    `tiny-claw chat · session ${session} · mode ${mode} · /help for commands, Ctrl-D to leave`,
  status: (parts: { mode: string; session: string; model: string; context: string }) =>
    `mode ${parts.mode} · session ${parts.session} · model ${parts.model} · context ${parts.context}`,
  contextUnknown: 'not used yet',
  contextTokens: (tokens: number) => `${tokens} tokens`,
  noSessionToContinue: (workdir: string) =>
    `no earlier session in ${workdir} to continue: starting the "default" session`,
  continuing: (session: string) => `continuing session ${session}; what it remembers:`,
  remembered: (line: string) => `  ${line}`,
  nothingRemembered: '  (nothing remembered yet)',
  cancelledMemory: (text: string) =>
    `${text}\n[cancelled by the user before the answer was complete]`,
  unknownCommand: (name: string) => `unknown command ${name}; the commands are:`,
  modeSet: (mode: string) => `mode ${mode}`,
  modeUsage: 'usage: /mode act|think|plan|plan-act',
  sessionNow: (session: string) => `session ${session}`,
  newSession: (session: string) => `new session ${session}`,
  noPlan: (session: string) => `session ${session} has no plan yet: /mode plan, then ask for one`,
  noTrace: 'no turn has run yet in this chat: send a prompt first',
  noPending: 'no approval is waiting in this session',
  costLine: (turn: string, total: string) => `last turn ${turn} · this chat ${total}`,
  compactNothing: (turns: number, chars: number) =>
    `nothing to compact: the conversation sent with the next turn holds ${turns} turn(s), ${chars} characters (tool output within a turn is compacted on every model call)`,
  compacted: (dropped: number, before: number, after: number) =>
    `compacted: ${dropped} earlier turn(s) left out of what the next turn sends, ${before} → ${after} characters (saved ${before - after}); the session's memory still holds their last lines`,
  mentionAttached: (path: string, chars: number) => `attached @${path} (${chars} chars)`,
  mentionRefused: (path: string, why: string) => `@${path} not attached: ${why}`,
  noSessions: (workdir: string) =>
    `no sessions in ${workdir} yet: 'tiny-claw chat' or 'tiny-claw run "<prompt>"' starts one`,
  sessionsHeader: ['NAME', 'LAST USED', 'TURNS', 'COST'],
  bye: '',
} as const;

/** The slash commands with one line each, as /help and an unknown command list them. */
export const slashHelp: ReadonlyArray<readonly [string, string]> = [
  ['/help', 'this list'],
  ['/mode act|think|plan|plan-act', 'the mode of the next turns'],
  ['/session [NAME]', 'show the session, or switch to NAME'],
  ['/new', 'start a new session (named by the time)'],
  ['/plan', "show the session's plan (PLAN.md, TODO.md)"],
  ['/trace', 'the trace of the last turn as a tree'],
  ['/approvals', 'the requests waiting in this session, decided here'],
  ['/rules', 'the kept permission rules in force'],
  ['/cost', 'tokens and cost of the last turn and of this chat'],
  [
    '/compact',
    'keep only the last turn of the conversation sent to the model, and say what it saved',
  ],
  ['/exit', 'leave (also Ctrl-D)'],
];

export const chatHelp = `Usage: tiny-claw chat [--session NAME | --continue] [--mode M] [--max-steps N] [--workdir DIR]
       tiny-claw            (no arguments, in a terminal)

Talk to the agent in a session: each prompt is one run of that session, its answer streamed as
it comes, one line per tool call and result, then the stop reason, tokens and cost, and a status
line (mode, session, model, context used). A risky tool call is asked about inline, exactly as
'tiny-claw run' asks; the request is saved first, so it can also be decided later with
'tiny-claw approvals'. Needs a terminal (exit 2 otherwise).

Keys: Enter sends; a line ending in \\, Shift+Enter (Alt+Enter) or a paste continues the prompt
over several lines; Ctrl-C cancels the running turn (its commands are stopped, its trace ends
cancelled, the partial answer is remembered) and keeps the chat; Ctrl-C twice at an empty prompt,
or Ctrl-D, leaves (exit 0); Up/Down recall earlier prompts of this workdir (kept in the state
dir as chat-history/<workdir hash>.jsonl, secrets redacted); Tab completes slash commands and
@path mentions. @path attaches that file's content to the prompt (only a file inside the
workdir that the read tool may read).

Commands:
${'{commands}'}

Options:
  --session NAME   the session to talk in (default: "default")
  --continue       reopen the most recently used session of this workdir
  --mode MODE      act (default), think, plan or plan-act, as for 'tiny-claw run'; /mode changes it
  --max-steps N    most model calls per turn (default 20)
  --workdir DIR    directory the agent works in (default: TINY_CLAW_WORKDIR or the current directory)
  -h, --help       show this help
`;

export const sessionsHelp = `Usage: tiny-claw sessions [--json] [--workdir DIR]

The CLI sessions of a workdir that ran at least once, most recently used first: name, when it was
last used, how many turns (runs) it had, and their estimated cost (cost=unknown when a model had
no price). Read from the traces in the state dir; never calls the model.

Options:
  --json          print the sessions as JSON: name, key, lastUsed, turns, costUsd
  --workdir DIR   the workdir whose sessions to list (default: TINY_CLAW_WORKDIR or the current directory)
  -h, --help      show this help
`;
