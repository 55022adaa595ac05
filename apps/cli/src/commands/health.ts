import type { HealthReport, StateHealth } from '@tiny-claw/runtime';
import type { HealthArgs } from '../args.js';
import { ExitCode } from '../exit-codes.js';
import { healthHelp } from '../help.js';
import { loadApplication, workdirRefusal } from '../load-app.js';
import { describeWarning } from '../load-settings.js';
import type { Output } from '../output.js';

function describeMcpCounts(mcp: HealthReport['mcp']): string {
  const connected = mcp.servers.filter((server) => server.status === 'connected');
  const tools = connected.reduce((sum, server) => sum + server.tools.length, 0);
  const failed = mcp.servers.length - connected.length;
  const parts = [`${connected.length} connected (${tools} tools)`];
  if (failed > 0) parts.push(`${failed} failed`);
  if (mcp.untrusted) parts.push(`${mcp.untrusted.names.length} not started (folder not trusted)`);
  return parts.join(', ');
}

/**
 * `tiny-claw health`: the provider picked and why, tools, the bash sandbox in force and why,
 * directories, where state is kept and whether it can be reached, whether `run` would refuse the workdir (`/` or home with tools that change files),
 * effective settings.
 */
export async function healthCommand(args: HealthArgs, out: Output): Promise<number> {
  if (args.help) {
    out.stdout(healthHelp);
    return ExitCode.ok;
  }
  const app = await loadApplication({ refuseRootWorkdir: false });
  // The MCP servers were started to count their tools; they stop before the report is printed.
  await app.close();
  const refusal = await workdirRefusal(app.settings);
  const workdirCheck = refusal === undefined ? { refused: false } : { refused: true, refusal };
  const report = {
    ...app.health(),
    state: await app.checkState(),
    workdirCheck,
    warnings: app.settings.warnings,
  };
  if (args.json) {
    out.stdout(`${JSON.stringify(report, null, 2)}\n`);
    return ExitCode.ok;
  }
  const lines = [
    `status=${report.status}`,
    `version=${report.version}`,
    `provider=${report.provider.name}`,
    `provider_reason=${report.provider.reason}`,
    `model=${report.provider.model}`,
    `tools=${report.tools.length > 0 ? report.tools.join(', ') : 'none'}`,
    `approvals=${report.approvals}`,
    `sandbox=${report.sandbox.active}`,
    `sandbox_mode=${report.sandbox.mode}`,
    `sandbox_reason=${report.sandbox.reason}`,
    `mcp_servers=${describeMcpCounts(report.mcp)}`,
    `state_dir=${report.stateDir}`,
    ...stateLines(report.state),
    `workdir=${report.workdir}`,
    `workdir_check=${refusal === undefined ? 'ok' : `refused: ${refusal}`}`,
    '',
    'settings (effective value, source):',
    ...report.settings.map((row) => `  ${row.name}=${row.value} (${row.source})`),
    ...(report.warnings.length === 0 ? [] : ['', 'warnings:']),
    ...report.warnings.map((warning) => `  ${describeWarning(warning, process.cwd())}`),
  ];
  out.stdout(`${lines.join('\n')}\n`);
  return ExitCode.ok;
}

/** `state=files` with the dir, or `state=postgres` with the masked URL; then whether it is reachable. */
function stateLines(state: StateHealth): string[] {
  const where =
    state.backend === 'files' ? `state=files ${state.dir}` : `state=postgres ${state.url}`;
  const reach = state.reachable
    ? `state_reachable=yes${state.schemaVersion === undefined ? '' : ` (schema version ${state.schemaVersion})`}`
    : `state_reachable=no: ${state.problem ?? 'unknown'}`;
  return [where, reach];
}
