import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type McpLauncher, ProcessTransport } from './process-transport.js';
import type { McpServerConfig } from './server-config.js';

/** One tool a server lists, as read from `tools/list`. */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
}

/**
 * How a stdio server is started: a launcher to run its command through (a sandbox) and
 * environment variables to add. Called once per stdio server, before it starts.
 *
 * @example
 * const launch: McpLaunch = async () => ({ launcher: { command: 'setpriv', args: ['--pdeathsig', 'KILL'] } });
 */
export type McpLaunch = (
  name: string,
  server: Extract<McpServerConfig, { command: string }>,
) => Promise<{ launcher?: McpLauncher; env?: NodeJS.ProcessEnv }>;

/** A live connection to one server. */
export interface ServerConnection {
  client: Client;
  tools: ListedTool[];
  /** True once the server has gone away (its process exited, its session closed). */
  readonly closed: boolean;
  pid?: number;
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'tiny-claw', version: '0.1.0' };

/**
 * Connect to one server and list its tools (every page). stdio servers get the few safe
 * variables of the environment (`PATH`, `HOME`, …) and their own `env`, never the rest (no API
 * key of the agent leaks to them); their stderr goes to `onStderr`.
 *
 * @throws whatever connecting or listing throws; the caller reports it as the server's status.
 * @example
 * const connection = await connectServer('everything', { command: 'mcp-server-everything' }, { timeoutMs: 30_000 });
 */
export async function connectServer(
  name: string,
  server: McpServerConfig,
  options: {
    timeoutMs: number;
    cwd?: string;
    launch?: McpLaunch;
    onStderr?: (text: string) => void;
  },
): Promise<ServerConnection> {
  let transport: Transport;
  let processTransport: ProcessTransport | undefined;
  if ('command' in server) {
    const launch = options.launch ? await options.launch(name, server) : {};
    processTransport = new ProcessTransport({
      command: server.command,
      args: server.args ?? [],
      env: { ...getDefaultEnvironment(), ...launch.env, ...server.env },
      // A relative cwd is taken from the directory servers start in.
      ...(server.cwd || options.cwd
        ? { cwd: resolve(options.cwd ?? process.cwd(), server.cwd ?? '.') }
        : {}),
      ...(launch.launcher ? { launcher: launch.launcher } : {}),
      ...(options.onStderr ? { onStderr: options.onStderr } : {}),
    });
    transport = processTransport;
  } else {
    transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: server.headers ?? {} },
    });
  }
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  // Stray output and late answers are the server's problem, not the run's.
  client.onerror = () => {};
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: options.timeoutMs,
      });
      tools.push(...(page.tools as ListedTool[]));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return {
      client,
      tools,
      get closed() {
        return closed;
      },
      ...(processTransport?.pid === undefined ? {} : { pid: processTransport.pid }),
      close: () => client.close(),
    };
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
}
