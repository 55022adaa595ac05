import type { Application } from '@tiny-claw/runtime';
import { ExitCode } from '../exit-codes.js';
import { mcpHelp } from '../help.js';
import { loadApplication } from '../load-app.js';
import { parseMcpArgs } from '../mcp-args.js';
import type { Output } from '../output.js';

/**
 * `tiny-claw mcp list`: start the configured MCP servers the way `run` does, and show each one —
 * where it is configured, how it is reached, whether it started (and why not), its tools — plus a
 * project's servers left unstarted because the folder is not trusted. Never calls the model and
 * never shows a secret.
 */
export async function mcpCommand(argv: string[], out: Output): Promise<number> {
  const args = parseMcpArgs(argv);
  if (args.help || args.action === undefined) {
    out.stdout(mcpHelp);
    return ExitCode.ok;
  }
  const app = await loadApplication({ workdir: args.workdir, command: 'mcp', withoutModel: true });
  try {
    if (args.json) {
      out.stdout(`${JSON.stringify(app.mcp, null, 2)}\n`);
      return ExitCode.ok;
    }
    out.stdout(`${describeMcp(app.mcp, app.settings.workdir).join('\n')}\n`);
    return ExitCode.ok;
  } finally {
    await app.close();
  }
}

function describeMcp(report: Application['mcp'], workdir: string): string[] {
  const lines: string[] = [];
  if (report.servers.length === 0 && report.untrusted === undefined) {
    lines.push(
      'No MCP servers configured. Add them under "mcpServers" in ~/.config/tiny-claw/mcp.json, or in .mcp.json of a trusted project.',
    );
  }
  for (const server of report.servers) {
    const status =
      server.status === 'connected'
        ? `connected, ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`
        : `failed: ${server.error ?? 'unknown error'}`;
    lines.push(`${server.name}  ${server.transport}  ${server.origin} (${server.file})  ${status}`);
    for (const tool of server.tools) lines.push(`  ${tool}`);
  }
  if (report.untrusted) {
    lines.push(
      `not started (folder not trusted): ${report.untrusted.names.join(', ')} in ${report.untrusted.file}; to start them: tiny-claw trust ${workdir}`,
    );
  }
  return lines;
}
