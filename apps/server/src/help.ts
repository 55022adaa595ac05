/** `tiny-claw-server --help`. */
export const serverHelp = `tiny-claw-server — drive the tiny-claw agent from Feishu / Lark chats

Usage:
  tiny-claw-server [--host H] [--port P] [--feishu-path PATH] [--mode M] [--max-steps N] [--env-file PATH]
                   [--allow-root-workdir]

Options:
  --host H            address to listen on (default TINY_CLAW_SERVER_HOST, else 0.0.0.0)
  --port P            port to listen on, 0 for any free one (default TINY_CLAW_SERVER_PORT, else 8000)
  --feishu-path PATH  path Feishu posts events to (default FEISHU_EVENT_PATH, else /api/events/feishu)
  --mode M            run mode for chat messages: act, think, plan or plan-act (default act)
  --max-steps N       step limit of each run (default 20)
  --env-file PATH     read settings from this file instead of ./.env (a regular file of at most 1 MiB)
  --allow-root-workdir
                      let write, edit and bash work with / or the home directory as the workdir
                      (TINY_CLAW_WORKDIR); refused otherwise. Also TINY_CLAW_ALLOW_ROOT_WORKDIR=1
  -h, --help          show this help
  -V, --version       show the version

Routes:
  GET  /health        status, version, provider, Feishu set up or not (nothing secret)
  POST <feishu path>  Feishu events (webhook mode)

Feishu settings (environment or the env file):
  FEISHU_APP_ID, FEISHU_APP_SECRET       the app's credentials (without them the event endpoint answers 503)
  FEISHU_ENCRYPT_KEY                     encrypt and sign events (recommended)
  FEISHU_VERIFICATION_TOKEN              check the token every event carries
  FEISHU_MODE=webhook|ws                 events by webhook (default) or over the long connection
  FEISHU_DOMAIN=feishu|lark|<base URL>   which open API (default feishu)
  FEISHU_APPROVERS=ou_a,ou_b             who may approve risky calls besides the requester

Logs (stderr): TINY_CLAW_LOG_LEVEL=info writes a line per run started and finished and per approval
requested and decided (debug adds one per tool call; never message text or tool arguments);
TINY_CLAW_LOG_FORMAT=json writes each as one JSON object per line (default text).

The settings file (--env-file or ./.env) and tiny-claw's other settings files are out of every
tool's reach: no tool reads or writes them, sandboxed commands do not see them.

Exit codes: 0 after a clean shutdown (SIGINT or SIGTERM), 2 bad arguments or a refused workdir,
78 bad configuration, 1 other errors.
`;
