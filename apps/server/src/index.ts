/**
 * @tiny-claw/server — tiny-claw-server: an HTTP server (Hono) that lets a team drive the agent from
 * Feishu / Lark chats, one session per chat, with risky calls approved in the chat.
 *
 * @example
 * import { loadServerSettings, startServer } from '@tiny-claw/server';
 * const { settings } = await loadServerSettings({ env: process.env, cwd: process.cwd(), homeDir: os.homedir() });
 * const server = await startServer({ settings, options: { host: '127.0.0.1', port: 8000, eventPath: settings.feishu.eventPath, mode: 'act', maxSteps: 20 } });
 *
 * @module
 */
export type { ServerHealth } from './http/server-health.js';
export { main, ServerExit, type ServerProcess } from './main.js';
export {
  type LoadServerSettingsOptions,
  loadServerSettings,
} from './server/load-server-settings.js';
export {
  type RunningServer,
  type ServerOptions,
  type StartServerInput,
  startServer,
} from './server/start-server.js';
