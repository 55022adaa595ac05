import { ConfigurationError } from '@tiny-claw/core';
import { z } from 'zod';
import {
  httpServerSchema,
  type McpServerConfig,
  SERVER_NAME,
  stdioServerSchema,
} from './server-config.js';

const fileSchema = z.looseObject({
  mcpServers: z.record(z.string(), z.unknown()).optional(),
});

function fieldPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(the entry)' : path.map(String).join('.');
}

/**
 * Validate the `mcpServers` of one configuration file (the common format:
 * `{ "mcpServers": { "name": { "command", "args", "env" } | { "url", "headers" } } }`). Other
 * top-level keys are left alone, since the same file may serve other programs.
 *
 * @throws ConfigurationError naming the file, the server and the field that is wrong.
 * @example
 * parseMcpConfig(JSON.parse(text), '/repo/.mcp.json'); // { everything: { command: 'npx', … } }
 */
export function parseMcpConfig(json: unknown, file: string): Record<string, McpServerConfig> {
  const top = fileSchema.safeParse(json);
  if (!top.success) {
    throw new ConfigurationError(
      `${file}: expected an object with "mcpServers": { "<name>": { "command", "args", "env" } | { "url", "headers" } }.`,
    );
  }
  const servers: Record<string, McpServerConfig> = {};
  for (const [name, entry] of Object.entries(top.data.mcpServers ?? {})) {
    if (!SERVER_NAME.test(name) || name.includes('__')) {
      throw new ConfigurationError(
        `${file}: server "${name}": a server name may use only letters, digits, "_" and "-" (at most 64, no "__", which separates it from the tool's name); rename it.`,
      );
    }
    const isHttp = typeof entry === 'object' && entry !== null && 'url' in entry;
    const parsed = (isHttp ? httpServerSchema : stdioServerSchema).safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ConfigurationError(
        `${file}: server "${name}": ${fieldPath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}. ` +
          'A server is { "command", "args"?, "env"? } or { "url", "headers"? }.',
      );
    }
    servers[name] = parsed.data;
  }
  return servers;
}

/**
 * Parse the text of a configuration file (see {@link parseMcpConfig}).
 *
 * @throws ConfigurationError when it is not JSON or does not fit.
 * @example
 * parseMcpConfigText('{"mcpServers":{}}', '/repo/.mcp.json'); // {}
 */
export function parseMcpConfigText(text: string, file: string): Record<string, McpServerConfig> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError(`${file}: not valid JSON (${(error as Error).message}); fix it.`);
  }
  return parseMcpConfig(json, file);
}
