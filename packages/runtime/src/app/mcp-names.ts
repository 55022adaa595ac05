/**
 * What every MCP tool's name starts with: the tools of a server named `s` are `mcp__s__<tool>`
 * (the `@tiny-claw/mcp` naming; a test keeps the two in step).
 */
export const MCP_TOOL_PREFIX = 'mcp__';

/**
 * Whether a tool name is an MCP server's tool.
 *
 * @example
 * isMcpToolName('mcp__everything__echo'); // true
 */
export function isMcpToolName(name: string): boolean {
  return name.startsWith(MCP_TOOL_PREFIX);
}

/**
 * Whether an allow or deny entry covers a tool: the same name, or `mcp__<server>__*` for every tool
 * of that server.
 *
 * @example
 * policyEntryCovers('mcp__everything__*', 'mcp__everything__echo'); // true
 */
export function policyEntryCovers(entry: string, tool: string): boolean {
  if (isMcpToolName(entry) && entry.endsWith('__*')) return tool.startsWith(entry.slice(0, -1));
  return entry === tool;
}
