import { ConfigurationError } from '@tiny-claw/core';
import type { McpServerConfig } from './server-config.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * A server whose `${VAR}` references are replaced, with the values that came from them: those
 * are secrets, kept out of logs, traces and status reports.
 *
 * @example
 * const { server, secrets } = expandServerVariables('api', config, process.env);
 */
export interface ExpandedServer {
  server: McpServerConfig;
  secrets: readonly string[];
}

/**
 * Replace `${VAR}` (and `${VAR:-default}`) in a server's `env` and `headers` values with the
 * variables of `env`.
 *
 * @throws ConfigurationError naming the server, the field and the variable when it is unset and
 * has no default.
 * @example
 * expandServerVariables('api', { url: 'https://x/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } }, { TOKEN: 't' });
 * // { server: { …, headers: { Authorization: 'Bearer t' } }, secrets: ['t'] }
 */
export function expandServerVariables(
  name: string,
  server: McpServerConfig,
  env: NodeJS.ProcessEnv,
): ExpandedServer {
  const secrets: string[] = [];
  const expand = (field: string, values: Record<string, string> | undefined) => {
    if (values === undefined) return undefined;
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(values)) {
      out[key] = value.replace(REFERENCE, (_match, variable: string, fallback?: string) => {
        const found = env[variable] ?? fallback;
        if (found === undefined) {
          throw new ConfigurationError(
            `MCP server "${name}": ${field}.${key} refers to \${${variable}}, which is not set; set it or write \${${variable}:-default}.`,
          );
        }
        if (found !== '') secrets.push(found);
        return found;
      });
    }
    return out;
  };
  if ('command' in server) {
    const expanded = expand('env', server.env);
    return { server: { ...server, ...(expanded ? { env: expanded } : {}) }, secrets };
  }
  const expanded = expand('headers', server.headers);
  return { server: { ...server, ...(expanded ? { headers: expanded } : {}) }, secrets };
}

/**
 * `text` with every secret replaced by `***`, for a line that may reach a log or a report.
 *
 * @example
 * maskSecrets('401 for token abc', ['abc']); // '401 for token ***'
 */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length > 0) out = out.split(secret).join('***');
  }
  return out;
}
