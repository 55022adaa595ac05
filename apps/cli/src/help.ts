/** Help texts of the CLI; user-facing strings live here. */
export const mainHelp = `tiny-claw — a coding agent that reads, writes and runs code in one workdir

Usage:
  tiny-claw run [prompt] [--mode act|think|plan|plan-act] [--session NAME | --continue] [--max-steps N] [--workdir DIR] [--json]
  tiny-claw chat [--session NAME | --continue] [--mode M]   (also: tiny-claw alone, in a terminal)
  tiny-claw sessions [--workdir DIR] [--json]
  tiny-claw plan show|reset [--session NAME] [--workdir DIR] [--json]
  tiny-claw approvals list [--status S] [--session NAME] [--workdir DIR] [--json] | show ID [--json]
                 | approve ID [--session NAME] [--workdir DIR] [--json]
                 | reject ID [reason] [--session NAME] [--workdir DIR] [--json]
  tiny-claw trace list [--session NAME] [--json] | show <id|last> [--session NAME] [--json]
                 | view <id|last> [--session NAME] [--out FILE]
  tiny-claw health [--json]
  tiny-claw mcp list [--json] [--workdir DIR]
  tiny-claw trust [DIR] | untrust [DIR]
  tiny-claw policy check [--json] [--workdir DIR] [--tool NAME [--path P]] [-- COMMAND]
                 | rules [--json] [--workdir DIR]
  tiny-claw state migrate
  tiny-claw --help | --version

Global options (before or after the command name):
  --env-file PATH        read settings from this file too (below real environment variables);
                         a regular file of at most 1 MiB
  --allow-root-workdir   let write, edit and bash work with / or your home directory as the
                         workdir (refused otherwise; also TINY_CLAW_ALLOW_ROOT_WORKDIR=1)

Commands:
  run        Run the agent once on a prompt; the final answer goes to stdout, progress to stderr.
  chat       Talk to the agent in a session, prompt after prompt, in a terminal.
  sessions   List the sessions of a workdir: name, last used, turns, cost.
  plan       Show or delete the plan (PLAN.md, TODO.md) of a session.
  approvals  List, show, approve or reject the tool calls that paused a run.
  trace      List recorded run traces, show one as a tree, or write one as a self-contained HTML page.
  health     Show the provider it picked and why, the tools, the directories and the effective settings.
  mcp        List the configured MCP servers, whether they started, and their tools.
  trust      Let tiny-claw read the .env of a folder (default: this one); untrust takes that back.
  policy     Judge a tool call as 'run' would, without running it; list the kept permission rules.
  state      Create or update the tables of the PostgreSQL state store (TINY_CLAW_STATE_URL).

Run 'tiny-claw <command> --help' for the options of a command.

The server that drives the agent from Feishu / Lark chats is a separate program, not a command:
tiny-claw-server (package @tiny-claw/server). In the repository: pnpm exec tiny-claw-server --help

Settings come from, strongest first: environment variables, --env-file PATH,
~/.config/tiny-claw/.env (or $XDG_CONFIG_HOME/tiny-claw/.env), and ./.env only in a folder you
trusted with 'tiny-claw trust' (a project's .env is its own, not tiny-claw's; you are told when it
changed since you trusted it). No tool can read or change the --env-file, ~/.config/tiny-claw/
or the trust list. For example:
  TINY_CLAW_PROVIDER=auto|openai|claude|anthropic|echo|scripted   TINY_CLAW_SCRIPT=<script.json>
  TINY_CLAW_STATE_DIR (default ~/.tiny-claw)   TINY_CLAW_WORKDIR (default: current directory)
  TINY_CLAW_STATE_URL=postgres://… (state in PostgreSQL, shared by several processes, instead of
    files in the state dir)   TINY_CLAW_STATE_POOL_SIZE (default 10)
  TINY_CLAW_ENABLED_TOOLS (default read)   TINY_CLAW_MAX_TOKENS
  TINY_CLAW_LOG_LEVEL=debug|info|warn|error (default warn)   TINY_CLAW_LOG_FORMAT=text|json (default text)
  TINY_CLAW_APPROVAL_PROVIDER=auto|off|cli   TINY_CLAW_APPROVAL_REQUIRED_TOOLS (default bash,edit,write)
  TINY_CLAW_APPROVAL_TIMEOUT_SECONDS (default 3600)
'tiny-claw health' lists every setting with its effective value.

Exit codes:
  0    done: the run ended with a final answer (other commands: they did what was asked)
  1    runtime error, or a refused approval decision (unknown, expired, already decided, changed)
  2    usage error (bad command or flag, an --env-file that is not a regular file of at most
       1 MiB, a workdir of / or home refused without --allow-root-workdir)
  3    stopped without a final answer (max_steps_exhausted, tool_policy_blocked, or a model
       that keeps answering with nothing: provider_error with stopDetail empty_turns)
  4    paused waiting for approval (approval_required): decide with 'tiny-claw approvals'
  70   model provider error
  71   tool error
  78   configuration error (invalid setting or missing key)
  130  interrupted (SIGINT, Ctrl-C): the run was cancelled, its commands stopped, its trace kept
  143  terminated (SIGTERM or SIGHUP): cancelled the same way
A second signal while a run is being cancelled quits at once (its commands are still killed).
`;

export const runHelp = `Usage: tiny-claw run [prompt] [options]

Run the agent once. The final answer is printed on stdout; steps, tool calls and results on stderr,
then a summary line: stop reason, steps, tokens, the estimated cost (cost≈$0.0123, or cost=unknown
when the model has no price; TINY_CLAW_PRICES adds prices) and the trace file.
Use '-' as the prompt to read it from stdin.

A risky tool call (a write to .env, rm, git push --force …) pauses the run before it runs; the
request is saved first. In a terminal you are asked right away: y approves, n rejects, n <reason>
rejects and tells the model why; no answer (Ctrl-C, Ctrl-D) leaves it pending. Without a terminal
(piped, --json, CI) the run stops with exit 4 and prints the 'tiny-claw approvals approve|reject'
commands that decide it later, from any process.

Options:
  --mode MODE       act (default: may call tools), think (no tools), plan (write or show the
                    session's PLAN.md/TODO.md) or plan-act (plan if needed, then execute TODO items)
  --session NAME    named session: its own memory (default: "default")
  --continue        use the session this workdir used last ('tiny-claw sessions' lists them)
  --max-steps N     most model calls in this run (default 20)
  --workdir DIR     directory the agent works in (default: TINY_CLAW_WORKDIR or the current directory);
                    / and your home directory are refused while write, edit or bash is enabled,
                    unless --allow-root-workdir (or TINY_CLAW_ALLOW_ROOT_WORKDIR=1) is given
  --json            print the run result as JSON instead of the answer (never asks)
  -h, --help        show this help
`;

export const approvalsHelp = `Usage:
  tiny-claw approvals list [--status S] [--session NAME] [--workdir DIR] [--json]
  tiny-claw approvals show ID [--json]
  tiny-claw approvals approve ID [--session NAME] [--workdir DIR] [--json]
  tiny-claw approvals reject ID [reason] [--session NAME] [--workdir DIR] [--json]

A run pauses when the model asks for a risky tool call; the request and the run's state are saved
under <state dir>/sessions/<session>/approvals/ and checkpoints/. Deciding continues the run from
there, in this process: the approved call runs exactly once (or the model is told who rejected it
and why), then the rest of the run goes on. The outcome is printed like 'tiny-claw run' prints it.

Commands:
  list      Requests, newest first: id, status, tool, created, session, first reason.
  show      One request in full: reasons, arguments, files it would change, decision.
  approve   Run the paused call and continue the run (exit code as for run; 4 if it pauses again).
  reject    Tell the model the call was rejected (with the reason, if given) and continue the run.

A decision is refused (exit 1, nothing runs) when the id is malformed or unknown, the request
belongs to another session, was already decided, has expired, or when the saved run state or a
file the call would change was modified after the request.

Options:
  --status S       only requests in this status: pending, claimed, consumed, rejected, expired,
                   failed, unknown_outcome
  --session NAME   the session the run used ('tiny-claw run --session NAME'; default "default")
  --workdir DIR    the workdir the run used (default: TINY_CLAW_WORKDIR or the current directory)
  --json           print JSON: the records (list, show) or the continued run's result
  -h, --help       show this help

Settings: TINY_CLAW_APPROVAL_PROVIDER (auto = ask in this terminal; off = never pause),
TINY_CLAW_APPROVAL_REQUIRED_TOOLS (default bash,edit,write), TINY_CLAW_APPROVAL_TIMEOUT_SECONDS
(default 3600).
`;

export const trustHelp = `Usage: tiny-claw trust [DIR]

Let tiny-claw read DIR/.env (default: the current folder) when it is started in DIR. A
repository's .env is that project's own configuration and could redirect your API key or enable
tools, so tiny-claw ignores it (with a notice) until you trust the folder. Trust covers exactly
that folder, not its subfolders. The list is kept in the state dir (trusted-folders.json); a
project's own .env cannot move it. To use a .env once without trusting its folder, pass
--env-file ./.env.

The .env is recorded (its SHA-256) with the trust. If it changes later, tiny-claw still uses it
and tells you once per new content; run 'tiny-claw trust' again to accept the current .env.

Options:
  -h, --help   show this help
`;

export const untrustHelp = `Usage: tiny-claw untrust [DIR]

Stop reading DIR/.env (default: the current folder): take DIR off the trust list that
'tiny-claw trust' keeps in the state dir.

Options:
  -h, --help   show this help
`;

export const healthHelp = `Usage: tiny-claw health [--json]

Show the provider tiny-claw picked and why, the tools it will offer, its directories, where state
is kept and whether it can be reached (state=files with the state dir, or state=postgres with
TINY_CLAW_STATE_URL, its password masked), whether 'run' would refuse the workdir
(workdir_check), and the effective value and source of every setting (secrets masked). Never
calls the model.

Options:
  --json       print the report as JSON
  -h, --help   show this help
`;

export const mcpHelp = `Usage: tiny-claw mcp list [--json] [--workdir DIR]

Start the configured MCP servers as 'run' would, and list each one: its transport (stdio or http),
where it is configured, whether it started (or why not) and its tools, named
mcp__<server>__<tool>. Never calls the model; env and header values are never shown.

Servers come from "mcpServers" in ~/.config/tiny-claw/mcp.json (or $XDG_CONFIG_HOME/tiny-claw/mcp.json)
and, only in a folder you trusted with 'tiny-claw trust', from the project's .mcp.json:
  { "mcpServers": { "everything": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"] },
                    "web": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer \${MCP_TOKEN}" } } } }
\${VAR} in env and headers is read from the environment. Every MCP tool needs approval; deny a
server's tools with TINY_CLAW_TOOL_DENYLIST=mcp__<server>__* (or one tool by its name).

Options:
  --json          print the servers as JSON
  --workdir DIR   the project whose .mcp.json counts (default: the current directory)
  -h, --help      show this help
`;

export const policyHelp = `Usage: tiny-claw policy check [--json] [--workdir DIR] [--tool NAME [--path P]] [-- COMMAND]
       tiny-claw policy rules [--json] [--workdir DIR]

check  Judge a tool call exactly as 'run' would, without running it: the built-in risk policy, the
       sandbox setting, the protected paths and the kept rules. The bash command is the words after
       -- (joined by spaces; quote it to keep it whole) or, without them, stdin. --tool write|edit
       --path P judges a file call instead. Prints the verdict (allow, approval_required or deny) on
       the first line, then one reason per line, then the kept rules that applied. --json prints
       { verdict, reasons, commands, rule, rules }. Exit 0 for any verdict.
rules  List the kept rules in force for the workdir and where each comes from, and those ignored.

Kept rules: ~/.config/tiny-claw/rules.json (or $XDG_CONFIG_HOME/tiny-claw/rules.json), e.g.
  { "rules": [ { "tool": "bash", "prefix": ["npm", "test"], "decision": "allow" },
               { "tool": "bash", "prefix": ["git", "push"], "decision": "deny", "reason": "by hand" },
               { "tool": "write", "path": "docs/**", "decision": "ask", "workdir": "/abs/project" } ] }
A bash rule matches each simple command of the program by its first words (after env, timeout
and other wrappers); a write/edit rule matches the path relative to the workdir. The strictest
verdict wins, and no rule allows what the built-in policy denies. A project's .claw/rules.json
counts only in a folder you trusted ('tiny-claw trust'), and only its ask and deny rules.

Options:
  --json            print JSON
  --workdir DIR     judge as in this workdir (default: the configured one)
  --tool NAME       the tool of the call (default bash)
  --path P          the file of a write or edit call
  -h, --help        show this help

Exit codes: 0 judged (any verdict), 2 usage error, 78 a bad rules file or setting.
`;

export const stateHelp = `Usage: tiny-claw state migrate

Create or update the tables of the PostgreSQL state store at TINY_CLAW_STATE_URL now, and print
the schema version. Each migration is applied once, in a transaction, under an advisory lock, so
running it while servers start is safe. tiny-claw also migrates on first use; run this to do it
ahead of a deploy. Unset TINY_CLAW_STATE_URL keeps state in files under TINY_CLAW_STATE_DIR, with
nothing to migrate.

Options:
  -h, --help   show this help

Exit codes: 0 migrated (or already up to date), 2 usage error, 78 TINY_CLAW_STATE_URL unset or
invalid, or the database cannot be reached.
`;
