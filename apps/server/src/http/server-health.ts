/**
 * What `GET /health` answers: enough to see the server is up and how it is set up, nothing secret
 * (no keys, tokens, URLs or paths) — the endpoint is public.
 *
 * @example
 * const health: ServerHealth = { status: 'ok', version: '0.1.0', provider: { name: 'echo', model: 'echo' }, approvals: 'off', feishu: { configured: false }, runs: { running: 0, waiting: 0 }, mcp: { servers: 0, connected: 0, tools: 0 } };
 */
export interface ServerHealth {
  status: 'ok' | 'draining';
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
  /** Chats with a run (or decision) in progress, and work waiting behind them. */
  runs: { running: number; waiting: number };
  /**
   * The configured MCP servers, by count only (their names, commands and URLs stay private):
   * how many are configured, how many started, and how many tools they give.
   */
  mcp: { servers: number; connected: number; tools: number };
}
