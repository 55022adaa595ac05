import type { Tool } from '@tiny-claw/core';
import { failureOutput } from './call-failure.js';
import { type CallResult, toToolOutput } from './call-result.js';
import { connectServer, type McpLaunch, type ServerConnection } from './connect-server.js';
import { type McpServerConfig, serverTransport } from './server-config.js';
import { assignToolNames } from './tool-name.js';
import { toToolParameters } from './tool-schema.js';
import { expandServerVariables, maskSecrets } from './variables.js';

/** Default time limit of one tool call, and of connecting to a server. */
export const MCP_DEFAULTS = { callTimeoutMs: 60_000, connectTimeoutMs: 30_000 } as const;

/**
 * What {@link mcpTools} connects to and how.
 *
 * @example
 * const options: McpToolsOptions = { servers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } } };
 */
export interface McpToolsOptions {
  /** The servers by name, as in the `mcpServers` of an `.mcp.json` file. */
  servers: Record<string, McpServerConfig>;
  /** Where `${VAR}` references in `env` and `headers` are read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Time limit of one tool call unless the server sets `timeoutMs` (default 60 s). */
  callTimeoutMs?: number;
  /** Time limit of connecting to a server and listing its tools (default 30 s). */
  connectTimeoutMs?: number;
  /** The directory stdio servers start in unless they set `cwd` (default: the current one). */
  cwd?: string;
  /** Starts stdio servers through a launcher (a sandbox); default: directly. */
  launch?: McpLaunch;
  /** A server's stderr, with secrets masked (default: dropped). */
  onStderr?: (server: string, text: string) => void;
}

/**
 * One server's state, safe to show: secrets from `${VAR}` references never appear.
 *
 * @example
 * const state: McpServerState = { name: 'everything', transport: 'stdio', status: 'connected', tools: ['mcp__everything__echo'] };
 */
export interface McpServerState {
  name: string;
  transport: 'stdio' | 'http';
  status: 'connected' | 'failed';
  /** Why it failed, in words. */
  error?: string;
  /** The names of its tools as the model sees them. */
  tools: string[];
  /** The process id of a connected stdio server (or of the sandbox it runs in). */
  pid?: number;
  /** The tools the server marks `readOnlyHint` (they change nothing, by its own account). */
  readOnlyHints: string[];
}

/**
 * The tools of the servers (an ordinary `Tool[]`), with each server's state and the one way to
 * stop them all.
 *
 * @example
 * const tools = await mcpTools({ servers });
 * try { await createAgent({ provider, tools }).run('…'); } finally { await tools.close(); }
 */
export type McpToolList = Tool[] & {
  readonly servers: readonly McpServerState[];
  /** Close every connection and stop every server process this list started. */
  close(): Promise<void>;
};

/**
 * Connect to every server (at once), list their tools and give each as a tool named
 * `mcp__<server>__<tool>` with the server's JSON schema as its parameters. A server that cannot be
 * reached, or whose `${VAR}` is unset, is left out with `status: 'failed'` and the reason; it
 * never fails the others. A call that gets no usable answer (time limit, a server that stops,
 * an answer that does not fit the protocol) is a failed observation, never an exception; the
 * run's signal cancels the call on the server too.
 *
 * @throws ConfigurationError when two tools would get the same name (both named).
 * @example
 * const tools = await mcpTools({ servers: { everything: { command: 'mcp-server-everything' } } });
 */
export async function mcpTools(options: McpToolsOptions): Promise<McpToolList> {
  const env = options.env ?? process.env;
  const connectTimeoutMs = options.connectTimeoutMs ?? MCP_DEFAULTS.connectTimeoutMs;
  const entries = Object.entries(options.servers);
  const connections: ServerConnection[] = [];
  const settled = await Promise.all(
    entries.map(async ([name, config]) => {
      let secrets: readonly string[] = [];
      try {
        const expanded = expandServerVariables(name, config, env);
        secrets = expanded.secrets;
        const onStderr = options.onStderr;
        const connection = await connectServer(name, expanded.server, {
          timeoutMs: connectTimeoutMs,
          ...(options.cwd ? { cwd: options.cwd } : {}),
          ...(options.launch ? { launch: options.launch } : {}),
          ...(onStderr ? { onStderr: (text) => onStderr(name, maskSecrets(text, secrets)) } : {}),
        });
        connections.push(connection);
        return { name, config, connection };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { name, config, error: maskSecrets(message, secrets) };
      }
    }),
  );
  const close = async () => {
    await Promise.all(connections.map((connection) => connection.close().catch(() => {})));
  };
  let named: ReturnType<typeof assignToolNames<ToolEntry>>;
  try {
    named = assignToolNames(
      settled.flatMap(({ name, config, connection }) =>
        (connection?.tools ?? []).map((listed) => ({
          server: name,
          tool: listed.name,
          listed,
          config,
          connection: connection as ServerConnection,
        })),
      ),
    );
  } catch (error) {
    await close();
    throw error;
  }
  const tools: Tool[] = named.map((entry) =>
    createMcpTool(
      entry,
      entry.config.timeoutMs ?? options.callTimeoutMs ?? MCP_DEFAULTS.callTimeoutMs,
    ),
  );
  const servers: McpServerState[] = settled.map(({ name, config, error, connection }) => {
    const own = named.filter((entry) => entry.server === name);
    return {
      name,
      transport: serverTransport(config),
      status: error === undefined ? 'connected' : 'failed',
      ...(error === undefined ? {} : { error }),
      ...(connection?.pid === undefined ? {} : { pid: connection.pid }),
      tools: own.map((entry) => entry.name),
      readOnlyHints: own
        .filter((entry) => entry.listed.annotations?.readOnlyHint === true)
        .map((entry) => entry.name),
    };
  });
  return Object.assign(tools, { servers, close });
}

interface ToolEntry {
  server: string;
  tool: string;
  listed: ServerConnection['tools'][number];
  config: McpServerConfig;
  connection: ServerConnection;
}

function createMcpTool(
  entry: ToolEntry & { name: string },
  timeoutMs: number,
): Tool<Record<string, unknown>> {
  const { parameters, description } = toToolParameters(
    entry.listed.inputSchema ?? {},
    entry.listed.description ?? '',
  );
  return {
    name: entry.name,
    description: `${description}${description === '' ? '' : '\n\n'}(Tool "${entry.tool}" of MCP server "${entry.server}".)`,
    parameters,
    // The server may keep state between calls: one at a time.
    parallelSafe: false,
    readOnly: entry.listed.annotations?.readOnlyHint === true,
    parse: (args) => args,
    run: async (args, ctx) => {
      try {
        const result = await entry.connection.client.callTool(
          { name: entry.tool, arguments: args },
          undefined,
          { signal: ctx.signal, timeout: timeoutMs },
        );
        return toToolOutput(result as CallResult, entry.server);
      } catch (error) {
        return failureOutput(error, {
          server: entry.server,
          tool: entry.tool,
          timeoutMs,
          signal: ctx.signal,
          closed: entry.connection.closed,
        });
      }
    },
  };
}
