import { takeGlobalFlags, useSettingsInvocation } from './env-file-flag.js';
import { ExitCode, exitCodeForError } from './exit-codes.js';
import { mainHelp } from './help.js';
import { type Output, processOutput } from './output.js';
import { serverCommands, serverPointer } from './server-pointer.js';
import { UsageError } from './usage-error.js';
import { cliVersion } from './version.js';

/**
 * Entry point of the `tiny-claw` command. Returns the exit code; never throws.
 * Everything beyond help and version (zod, the runtime, providers) is imported only when a command
 * runs, so `--help` and `--version` start about as fast as Node itself.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: string[], out: Output = processOutput()): Promise<number> {
  try {
    // Global flags: accepted before or after the command name, and taken out before either parses.
    const { envFile, allowRootWorkdir, rest: args } = takeGlobalFlags(argv);
    useSettingsInvocation({ envFile, allowRootWorkdir, notice: (line) => out.stderr(line) });
    const [command, ...rest] = args;
    // Alone in a terminal it opens the chat; piped or scripted it prints help, as it always did.
    if (command === undefined && process.stdin.isTTY && process.stdout.isTTY) {
      const { chatCommand } = await import('./commands/chat.js');
      return await chatCommand([], out);
    }
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      out.stdout(mainHelp);
      return ExitCode.ok;
    }
    if (command === '--version' || command === '-V' || command === 'version') {
      out.stdout(`tiny-claw ${cliVersion()}\n`);
      return ExitCode.ok;
    }
    if (command === 'run') {
      const [{ parseRunArgs }, { runCommand }] = await Promise.all([
        import('./args.js'),
        import('./commands/run.js'),
      ]);
      return await runCommand(parseRunArgs(rest), out);
    }
    if (command === 'chat') {
      const { chatCommand } = await import('./commands/chat.js');
      return await chatCommand(rest, out);
    }
    if (command === 'sessions') {
      const { sessionsCommand } = await import('./commands/sessions.js');
      return await sessionsCommand(rest, out);
    }
    if (command === 'health') {
      const [{ parseHealthArgs }, { healthCommand }] = await Promise.all([
        import('./args.js'),
        import('./commands/health.js'),
      ]);
      return await healthCommand(parseHealthArgs(rest), out);
    }
    if (command === 'plan') {
      const { planCommand } = await import('./commands/plan.js');
      return await planCommand(rest, out);
    }
    if (command === 'approvals') {
      const { approvalsCommand } = await import('./commands/approvals.js');
      return await approvalsCommand(rest, out);
    }
    if (command === 'trace') {
      const { traceCommand } = await import('./commands/trace.js');
      return await traceCommand(rest, out);
    }
    if (command === 'trust' || command === 'untrust') {
      const { trustCommand } = await import('./commands/trust.js');
      return await trustCommand(command, rest, out);
    }
    if (command === 'mcp') {
      const { mcpCommand } = await import('./commands/mcp.js');
      return await mcpCommand(rest, out);
    }
    if (command === 'policy') {
      const { policyCommand } = await import('./commands/policy.js');
      return await policyCommand(rest, out);
    }
    if (command === 'state') {
      const { stateCommand } = await import('./commands/state.js');
      return await stateCommand(rest, out);
    }
    if (serverCommands.includes(command)) throw new UsageError(serverPointer(command));
    throw new UsageError(
      `unknown command ${JSON.stringify(command)}: expected run, plan, approvals, trace, health, mcp, trust, untrust, policy, state, chat or sessions`,
    );
  } catch (error) {
    return reportError(error, out);
  }
}

async function reportError(error: unknown, out: Output): Promise<number> {
  if (error instanceof UsageError) {
    const help = error.command ? `tiny-claw ${error.command} --help` : 'tiny-claw --help';
    out.stderr(`tiny-claw: ${error.message}\nRun '${help}' for usage.\n`);
    return ExitCode.usage;
  }
  const { TinyClawError } = await import('@tiny-claw/core');
  if (TinyClawError.isInstance(error)) {
    out.stderr(`tiny-claw: ${error.message.replaceAll('\n', '\n  ')}\n`);
    return exitCodeForError(error.code);
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  out.stderr(`tiny-claw: unexpected error: ${detail}\n`);
  if (process.env.TINY_CLAW_LOG_LEVEL?.toLowerCase() === 'debug' && error instanceof Error) {
    out.stderr(`${error.stack ?? ''}\n`);
  }
  return ExitCode.runtime;
}
