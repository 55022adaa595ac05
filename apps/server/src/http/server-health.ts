/**
 * What `GET /health` answers: enough to see the server is up and how it is set up, nothing secret
 * (no keys, tokens or paths; the state database's URL only with its password and query values
 * masked) — the endpoint is public. `unavailable` (answered with HTTP 503) means the state
 * database cannot be reached, and `state.problem` says why.
 *
 * @example
 * const health: ServerHealth = { status: 'ok', version: '0.1.0', provider: { name: 'echo', model: 'echo' }, approvals: 'off', feishu: { configured: false }, state: { backend: 'files' }, runs: { running: 0, waiting: 0 }, mcp: { servers: 0, connected: 0, tools: 0 } };
 */
export interface ServerHealth {
  status: 'ok' | 'draining' | 'unavailable';
  version: string;
  provider: { name: string; model: string };
  /** Who decides on risky calls: `feishu` (in the chat), `cli` or `off`. */
  approvals: 'off' | 'cli' | 'feishu';
  feishu:
    | { configured: false }
    | {
        configured: true;
        mode: 'webhook' | 'ws';
        domain: 'feishu' | 'lark' | 'custom';
        eventPath?: string;
        /** How webhook requests are authenticated. */
        verification?: 'signature and token' | 'signature' | 'token';
      };
  /**
   * Where the state is kept: files under the state dir (one replica), or PostgreSQL (several);
   * `reachable`, `schemaVersion` and `problem` are filled in by the check `GET /health` makes.
   */
  state:
    | { backend: 'files' }
    | {
        backend: 'postgres';
        /** Password and query values masked. */
        url: string;
        reachable?: boolean;
        schemaVersion?: number;
        problem?: string;
      };
  /** Chats with a run (or decision) in progress, and work waiting behind them. */
  runs: { running: number; waiting: number };
  /**
   * The configured MCP servers, by count only (their names, commands and URLs stay private):
   * how many are configured, how many started, and how many tools they give.
   */
  mcp: { servers: number; connected: number; tools: number };
}
