/** Help texts of the CLI; user-facing strings live here. */
export const mainHelp = `tiny-claw — a coding agent that reads, writes and runs code in one workdir

Usage:
  tiny-claw run [prompt] [--mode act|think|plan|plan-act] [--session NAME] [--max-steps N] [--workdir DIR] [--json]
  tiny-claw plan show|reset [--session NAME] [--workdir DIR] [--json]
  tiny-claw trace list [--session NAME] [--json] | show <id|last> [--session NAME] [--json]
                 | view <id|last> [--session NAME] [--out FILE]
  tiny-claw health [--json]
  tiny-claw --help | --version

Commands:
  run      Run the agent once on a prompt; the final answer goes to stdout, progress to stderr.
  plan     Show or delete the plan (PLAN.md, TODO.md) of a session.
  trace    List recorded run traces, show one as a tree, or write one as a self-contained HTML page.
  health   Show the provider it picked and why, the tools, the directories and the effective settings.

Run 'tiny-claw <command> --help' for the options of a command.

Configuration comes from environment variables (real ones win over ./.env), e.g.
  TINY_CLAW_PROVIDER=auto|openai|claude|anthropic|echo|scripted   TINY_CLAW_SCRIPT=<script.json>
  TINY_CLAW_STATE_DIR (default ~/.tiny-claw)   TINY_CLAW_WORKDIR (default: current directory)
  TINY_CLAW_ENABLED_TOOLS (default read)   TINY_CLAW_MAX_TOKENS   TINY_CLAW_LOG_LEVEL
'tiny-claw health' lists every setting with its effective value.

Exit codes:
  0    ok (the run returned; its stop reason is in the output)
  1    runtime error
  2    usage error (bad command or flag)
  70   model provider error
  71   tool error
  78   configuration error (invalid setting or missing key)
  130  interrupted (Ctrl-C)
`;

export const runHelp = `Usage: tiny-claw run [prompt] [options]

Run the agent once. The final answer is printed on stdout; steps, tool calls and results on stderr.
Use '-' as the prompt to read it from stdin.

Options:
  --mode MODE       act (default: may call tools), think (no tools), plan (write or show the
                    session's PLAN.md/TODO.md) or plan-act (plan if needed, then execute TODO items)
  --session NAME    named session: its own memory (default: "default")
  --max-steps N     most model calls in this run (default 20)
  --workdir DIR     directory the agent works in (default: TINY_CLAW_WORKDIR or the current directory)
  --json            print the run result as JSON instead of the answer
  -h, --help        show this help
`;

export const healthHelp = `Usage: tiny-claw health [--json]

Show the provider tiny-claw picked and why, the tools it will offer, its directories and the
effective value and source of every setting (secrets masked). Never calls the model.

Options:
  --json       print the report as JSON
  -h, --help   show this help
`;
