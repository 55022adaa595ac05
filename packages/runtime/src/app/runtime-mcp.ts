import { realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Logger, Tool } from '@tiny-claw/core';
import type { McpLaunch, McpToolList } from '@tiny-claw/mcp';
import { sandboxedLaunch } from '@tiny-claw/tools';
import type { Settings } from '../settings/settings-schema.js';
import { readMcpConfig } from './mcp-config.js';
import { runtimeSandbox } from './tool-factory.js';

/**
 * One MCP server as `health` and `tiny-claw mcp list` show it: never a secret (no `env` or
 * `headers` value).
 *
 * @example
 * const row: McpServerReport = { name: 'everything', origin: 'user', file: '/home/me/.config/tiny-claw/mcp.json', transport: 'stdio', status: 'connected', tools: ['mcp__everything__echo'] };
 */
export interface McpServerReport {
  name: string;
  origin: 'user' | 'project';
  file: string;
  transport: 'stdio' | 'http';
  status: 'connected' | 'failed';
  error?: string;
  tools: string[];
}

/**
 * The configured MCP servers as `health` and `tiny-claw mcp list` show them, and a project's
 * servers that were not started because its folder is not trusted.
 *
 * @example
 * const report: McpReport = { servers: [], untrusted: { file: '/w/.mcp.json', names: ['db'] } };
 */
export interface McpReport {
  servers: McpServerReport[];
  untrusted?: { file: string; names: string[] };
}

/**
 * The MCP servers of an application: their tools, what to show about them, and how to stop them.
 *
 * @example
 * const mcp = await createRuntimeMcp(settings, logger);
 * mcp.report.servers.length; // 0 when nothing is configured
 */
export interface RuntimeMcp {
  tools: readonly Tool[];
  report: McpReport;
  close(): Promise<void>;
}

/** Words for the one notice about a project's servers that were not started. */
export const mcpNotices = {
  untrusted: (file: string, names: readonly string[], workdir: string) =>
    `Did not start the MCP server${names.length === 1 ? '' : 's'} ${names.join(', ')} of ${file}: this folder is not trusted. To start them, trust it: tiny-claw trust ${workdir}`,
  shadowed: (names: readonly string[]) =>
    `The project's MCP server${names.length === 1 ? '' : 's'} ${names.join(', ')} ${names.length === 1 ? 'has' : 'have'} the name of one of yours; yours ${names.length === 1 ? 'is' : 'are'} used.`,
  failed: (name: string, error: string) => `MCP server ${name} did not start: ${error}`,
} as const;

/**
 * Start the MCP servers configured for the settings' workdir (the user's, and a trusted project's)
 * and list their tools. A server that fails to start is reported (and logged once), never fatal;
 * a project's servers in an untrusted folder start nothing and get one notice naming them and how
 * to trust the folder. stdio servers start in the workdir, through `launch` when given (the
 * sandbox `bash` gets, by default). Loads the MCP client only when a server is configured.
 *
 * @throws ConfigurationError when a configuration file that counts is invalid, or two tools would
 * get one name.
 * @example
 * const mcp = await createRuntimeMcp(settings, logger);
 */
export async function createRuntimeMcp(
  settings: Settings,
  logger: Logger,
  options: { launch?: McpLaunch } = {},
): Promise<RuntimeMcp> {
  const read = await readMcpConfig(settings, settings.workdir);
  if (read.untrusted)
    logger.warn(mcpNotices.untrusted(read.untrusted.file, read.untrusted.names, settings.workdir));
  if (read.shadowed.length > 0) logger.warn(mcpNotices.shadowed(read.shadowed));
  const untrusted = read.untrusted ? { untrusted: read.untrusted } : {};
  if (read.servers.length === 0) {
    return { tools: [], report: { servers: [], ...untrusted }, close: async () => {} };
  }
  const { mcpTools } = await import('@tiny-claw/mcp');
  const list: McpToolList = await mcpTools({
    servers: Object.fromEntries(read.servers.map((entry) => [entry.name, entry.config])),
    cwd: settings.workdir,
    launch: options.launch ?? sandboxedServers(settings),
    onStderr: (server, text) => logger.debug(`MCP server ${server}: ${text.trimEnd()}`),
  });
  const servers = read.servers.map((entry): McpServerReport => {
    const state = list.servers.find((candidate) => candidate.name === entry.name);
    if (state?.status === 'failed') logger.warn(mcpNotices.failed(entry.name, state.error ?? ''));
    return {
      name: entry.name,
      origin: entry.origin,
      file: entry.file,
      transport: state?.transport ?? ('command' in entry.config ? 'stdio' : 'http'),
      status: state?.status ?? 'failed',
      ...(state?.error === undefined ? {} : { error: state.error }),
      tools: state?.tools ?? [],
    };
  });
  return { tools: [...list], report: { servers, ...untrusted }, close: () => list.close() };
}

/**
 * The files a stdio server runs from, for the sandbox to keep readable when they lie under `/tmp`:
 * each absolute path among its command and arguments that exists, as written and where its links
 * lead — for one inside a `node_modules` tree, that whole tree (its dependencies live there), else
 * the path itself, or the folder of a script file (its siblings are its modules).
 */
async function serverFiles(server: {
  command?: string;
  args?: readonly string[];
}): Promise<string[]> {
  const words = [server.command ?? '', ...(server.args ?? [])].filter((word) => isAbsolute(word));
  const files: string[] = [];
  for (const word of words) {
    const real = await realpath(word).catch(() => undefined);
    if (real === undefined) continue;
    // The path as written (a symbolic link pnpm made) and the file it leads to.
    for (const path of [resolve(word), real]) {
      const tree = path.indexOf('/node_modules/');
      if (tree >= 0) files.push(path.slice(0, tree + '/node_modules'.length));
      else files.push((await stat(path)).isDirectory() ? path : dirname(path));
    }
  }
  return [...new Set(files)];
}

/**
 * Start each stdio server in the sandbox `bash` commands get (`TINY_CLAW_SANDBOX`, the same hidden
 * paths, the state dir and the user's config folder hidden, the workdir writable, killed with its
 * parent), with the network as the server's `network` says (default on: most servers exist to
 * reach something). Without bubblewrap it still dies with its parent where `setpriv` exists.
 */
function sandboxedServers(settings: Settings): McpLaunch {
  return async (_name, server) => {
    const launch = await sandboxedLaunch({
      sandbox: { ...runtimeSandbox(settings), network: server.network ?? true },
      workdir: settings.workdir,
      ...(server.cwd ? { cwd: resolve(settings.workdir, server.cwd) } : {}),
      protectedPaths: [settings.stateDir, settings.configDir],
      // Only HOME: which credential folders to hide follows from it; the server gets no more.
      env: process.env.HOME ? { HOME: process.env.HOME } : {},
      readableTmp: await serverFiles(server),
    });
    return { ...(launch.launcher ? { launcher: launch.launcher } : {}), env: launch.env };
  };
}
