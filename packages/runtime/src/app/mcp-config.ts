import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigurationError } from '@tiny-claw/core';
import type { McpServerConfig } from '@tiny-claw/mcp';
import type { Settings } from '../settings/settings-schema.js';
import { isTrustedFolder } from '../settings/trusted-folders.js';

/**
 * The user's MCP servers: `mcp.json` next to the user's settings file
 * (`$XDG_CONFIG_HOME/tiny-claw/mcp.json`, `~/.config/tiny-claw/mcp.json` by default).
 *
 * @example
 * userMcpFile(settings); // '/home/me/.config/tiny-claw/mcp.json'
 */
export function userMcpFile(settings: Pick<Settings, 'configDir'>): string {
  return join(settings.configDir, 'mcp.json');
}

/**
 * A project's MCP servers, `.mcp.json` in its workdir (the format other agents read too). Its
 * servers start only when the workdir is a trusted folder (`tiny-claw trust`).
 *
 * @example
 * projectMcpFile('/srv/app'); // '/srv/app/.mcp.json'
 */
export function projectMcpFile(workdir: string): string {
  return join(workdir, '.mcp.json');
}

/**
 * One configured server and where it is configured.
 *
 * @example
 * const entry: McpServerEntry = { name: 'everything', origin: 'user', file: '/home/me/.config/tiny-claw/mcp.json', config: { command: 'npx' } };
 */
export interface McpServerEntry {
  name: string;
  origin: 'user' | 'project';
  file: string;
  config: McpServerConfig;
}

/**
 * The servers in force for a workdir, and a project's servers that were not started because the
 * folder is not trusted (or because the user configures a server of the same name).
 *
 * @example
 * const read: McpConfigRead = { servers: [], untrusted: { file: '/w/.mcp.json', names: ['db'] } };
 */
export interface McpConfigRead {
  servers: McpServerEntry[];
  untrusted?: { file: string; names: string[] };
  shadowed: string[];
}

async function readServers(file: string): Promise<Record<string, McpServerConfig> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigurationError(`${file}: cannot be read (${(error as Error).message}).`);
  }
  // The client (and its SDK) loads only when there is something to configure.
  const { parseMcpConfigText } = await import('@tiny-claw/mcp');
  return parseMcpConfigText(text, file);
}

/**
 * Read the user's and the project's `mcpServers`. The project's count only in a trusted folder;
 * otherwise they are returned as `untrusted`, by name, and nothing of them is started. A project
 * server with the name of a user's server is left out (the user's wins).
 *
 * @throws ConfigurationError naming the file, server and field when a file that counts is invalid.
 * @example
 * const read = await readMcpConfig(settings, settings.workdir);
 */
export async function readMcpConfig(settings: Settings, workdir: string): Promise<McpConfigRead> {
  const userFile = userMcpFile(settings);
  const user = (await readServers(userFile)) ?? {};
  const servers: McpServerEntry[] = Object.entries(user).map(([name, config]) => ({
    name,
    origin: 'user',
    file: userFile,
    config,
  }));
  const projectFile = projectMcpFile(workdir);
  const trusted = await isTrustedFolder(settings.stateDir, workdir);
  if (!trusted) {
    // An untrusted project's file is not even validated: only its server names are reported.
    const names = await projectServerNames(projectFile);
    return {
      servers,
      shadowed: [],
      ...(names.length > 0 ? { untrusted: { file: projectFile, names } } : {}),
    };
  }
  const project = (await readServers(projectFile)) ?? {};
  const shadowed: string[] = [];
  for (const [name, config] of Object.entries(project)) {
    if (name in user) shadowed.push(name);
    else servers.push({ name, origin: 'project', file: projectFile, config });
  }
  return { servers, shadowed };
}

async function projectServerNames(file: string): Promise<string[]> {
  try {
    const json = JSON.parse(await readFile(file, 'utf8')) as { mcpServers?: unknown };
    const servers = json.mcpServers;
    return typeof servers === 'object' && servers !== null ? Object.keys(servers) : [];
  } catch {
    return [];
  }
}
