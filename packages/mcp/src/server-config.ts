import { z } from 'zod';

/** What a server name may be: it becomes part of its tools' names. */
export const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const variables = z.record(z.string(), z.string());

/**
 * The zod schema of a stdio server: the command to start and its arguments, extra environment
 * variables (the server gets only these and a few safe ones: `PATH`, `HOME`, …), and whether it
 * may use the network when it runs in the sandbox (default true: most servers exist to reach
 * something).
 *
 * @example
 * stdioServerSchema.parse({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] });
 */
export const stdioServerSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, { error: 'command must name the program that starts the server' }),
  args: z.array(z.string()).optional(),
  env: variables.optional(),
  cwd: z.string().min(1).optional(),
  network: z.boolean().optional(),
  timeoutMs: z.number().int().positive().optional(),
});

/**
 * The zod schema of a Streamable HTTP server: its URL and the headers sent with every request (a
 * bearer token, for one).
 *
 * @example
 * httpServerSchema.parse({ url: 'http://127.0.0.1:3001/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } });
 */
export const httpServerSchema = z.strictObject({
  type: z.enum(['http', 'streamable-http']).optional(),
  url: z.url({ protocol: /^https?$/, error: 'url must be an http:// or https:// address' }),
  headers: variables.optional(),
  timeoutMs: z.number().int().positive().optional(),
});

/**
 * One server, as the common `mcpServers` format spells it: `{ command, args, env }` for a
 * program spoken to over stdin and stdout, `{ url, headers }` for a Streamable HTTP endpoint.
 *
 * @example
 * const server: McpServerConfig = { command: 'node', args: ['server.js'], env: { TOKEN: 'x' } };
 */
export type McpServerConfig = z.infer<typeof stdioServerSchema> | z.infer<typeof httpServerSchema>;

/**
 * Whether a server is started as a program (`stdio`) or reached over HTTP.
 *
 * @example
 * serverTransport({ url: 'https://mcp.example.com/mcp' }); // 'http'
 */
export function serverTransport(server: McpServerConfig): 'stdio' | 'http' {
  return 'command' in server ? 'stdio' : 'http';
}
