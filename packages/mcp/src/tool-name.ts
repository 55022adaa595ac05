import { createHash } from 'node:crypto';
import { ConfigurationError } from '@tiny-claw/core';

/** The longest tool name every provider accepts. */
export const MAX_TOOL_NAME = 64;

/**
 * The name a server's tool goes by: `mcp__<server>__<tool>`, every character outside
 * `[A-Za-z0-9_-]` replaced by `_`. A name longer than {@link MAX_TOOL_NAME} keeps its start and
 * ends in `_` and eight hex digits of a hash of the full name, so two long names stay apart.
 *
 * @example
 * mcpToolName('my.server', 'get file'); // 'mcp__my_server__get_file'
 */
export function mcpToolName(server: string, tool: string): string {
  const full = `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
  if (full.length <= MAX_TOOL_NAME) return full;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${full.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
}

/**
 * The prefix every tool of a server starts with; a policy entry `mcp__<server>__*` means them all.
 *
 * @example
 * mcpServerPrefix('everything'); // 'mcp__everything__'
 */
export function mcpServerPrefix(server: string): string {
  return `mcp__${server.replace(/[^A-Za-z0-9_-]/g, '_')}__`;
}

/**
 * Name every tool and refuse two that end up with the same name.
 *
 * @throws ConfigurationError naming both tools (server and MCP name) when two names collide.
 * @example
 * assignToolNames([{ server: 'a', tool: 'x' }]); // [{ server: 'a', tool: 'x', name: 'mcp__a__x' }]
 */
export function assignToolNames<T extends { server: string; tool: string }>(
  entries: readonly T[],
): Array<T & { name: string }> {
  const seen = new Map<string, T>();
  return entries.map((entry) => {
    const name = mcpToolName(entry.server, entry.tool);
    const other = seen.get(name);
    if (other) {
      throw new ConfigurationError(
        `MCP tools "${other.tool}" of server "${other.server}" and "${entry.tool}" of server "${entry.server}" would both be called ${name}; rename one of the servers.`,
      );
    }
    seen.set(name, entry);
    return { ...entry, name };
  });
}
