import { text as readStream } from 'node:stream/consumers';
import { ConfigurationError, type RunResult, validateSessionName } from '@tiny-claw/core';
import type { RunArgs } from '../args.js';
import { ExitCode, exitCodeForStopReason } from '../exit-codes.js';
import { runHelp } from '../help.js';
import { loadApplication } from '../load-app.js';
import type { Output } from '../output.js';
import { createTerminalOutput } from '../terminal-output.js';
import { UsageError } from '../usage-error.js';

/** `tiny-claw run`: one agent run; answer on stdout (or the RunResult with --json). */
export async function runCommand(args: RunArgs, out: Output): Promise<number> {
  if (args.help) {
    out.stdout(runHelp);
    return ExitCode.ok;
  }
  if (args.session !== undefined) checkSessionName(args.session);
  const app = await loadApplication({ workdir: args.workdir });
  const prompt = args.readStdin ? await readStream(process.stdin) : (args.prompt ?? '');
  const health = app.health();
  out.stderr(
    `tiny-claw · provider ${health.provider.name} (${health.provider.reason}) · mode ${args.mode}\n`,
  );

  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(ExitCode.interrupted);
    out.stderr('\ncancelling… (press Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  const terminal = createTerminalOutput({
    stdout: out.stdout,
    stderr: out.stderr,
    color: out.color,
    streamToStdout: out.interactive && !args.json,
  });
  let result: RunResult;
  try {
    result = await app.run({
      prompt,
      mode: args.mode,
      maxSteps: args.maxSteps,
      signal: controller.signal,
      onEvent: terminal.onEvent,
      ...(args.session === undefined ? {} : { session: args.session }),
    });
  } finally {
    process.off('SIGINT', onSigint);
    await app.close();
  }

  if (args.json) {
    out.stdout(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    if (result.stopReason === 'provider_error') out.stderr(`tiny-claw: ${result.text}\n`);
    else if (terminal.lastStreamedText() !== result.text || result.text === '') {
      out.stdout(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    }
  }
  out.stderr(`${summary(result)}\n`);
  return exitCodeForStopReason(result.stopReason);
}

function summary(result: RunResult): string {
  const parts = [
    `stop=${result.stopReason}`,
    `steps=${result.steps}/${result.maxSteps}`,
    `session=${result.sessionKey}`,
  ];
  if (result.usage)
    parts.push(`tokens=${result.usage.inputTokens} in / ${result.usage.outputTokens} out`);
  if (result.tracePath) parts.push(`trace=${result.tracePath}`);
  return `tiny-claw · ${parts.join(' · ')}`;
}

function checkSessionName(name: string): void {
  try {
    validateSessionName(name);
  } catch (error) {
    if (error instanceof ConfigurationError)
      throw new UsageError(`--session: ${error.message}`, 'run');
    throw error;
  }
}
