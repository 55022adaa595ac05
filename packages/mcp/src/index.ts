/**
 * @tiny-claw/mcp — the tools of Model Context Protocol servers (stdio and Streamable HTTP) as
 * ordinary tiny-claw tools, named `mcp__<server>__<tool>`.
 *
 * @example
 * import { mcpTools } from '@tiny-claw/mcp';
 * const tools = await mcpTools({ servers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } } });
 * // createAgent({ provider, tools }); … await tools.close();
 *
 * @module
 */
export { parseMcpConfig, parseMcpConfigText } from './config-file.js';
export type { McpLaunch } from './connect-server.js';
export {
  MCP_DEFAULTS,
  type McpServerState,
  type McpToolList,
  type McpToolsOptions,
  mcpTools,
} from './mcp-tools.js';
export type { McpLauncher } from './process-transport.js';
export {
  httpServerSchema,
  type McpServerConfig,
  serverTransport,
  stdioServerSchema,
} from './server-config.js';
export { MAX_TOOL_NAME, mcpServerPrefix, mcpToolName } from './tool-name.js';
export { type ExpandedServer, expandServerVariables, maskSecrets } from './variables.js';
