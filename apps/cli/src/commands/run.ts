import { text as readStream } from 'node:stream/consumers';
import { ConfigurationError, validateSessionName } from '@tiny-claw/core';
import type { RunArgs } from '../args.js';
import { cliActor } from '../cli-actor.js';
import { ExitCode } from '../exit-codes.js';
import { followRun } from '../follow-run.js';
import { runHelp } from '../help.js';
import { loadApplication } from '../load-app.js';
import type { Output } from '../output.js';
import { UsageError } from '../usage-error.js';

/**
 * `tiny-claw run`: one agent run; answer on stdout (or the RunResult with --json). A run that
 * pauses for an approval is asked about in a terminal, or ends with exit 4 and the commands that
 * decide it later.
 *
 * @example
 * process.exitCode = await runCommand(parseRunArgs(['hello']), processOutput());
 */
export async function runCommand(args: RunArgs, out: Output): Promise<number> {
  if (args.help) {
    out.stdout(runHelp);
    return ExitCode.ok;
  }
  if (args.session !== undefined) checkSessionName(args.session);
  const app = await loadApplication({ workdir: args.workdir });
  try {
    const prompt = args.readStdin ? await readStream(process.stdin) : (args.prompt ?? '');
    const health = app.health();
    out.stderr(
      `tiny-claw · provider ${health.provider.name} (${health.provider.reason}) · mode ${args.mode}\n`,
    );
    const actor = cliActor();
    return await followRun(
      (onEvent, signal) =>
        app.run({
          prompt,
          mode: args.mode,
          maxSteps: args.maxSteps,
          signal,
          onEvent,
          requestedBy: actor,
          ...(args.session === undefined ? {} : { session: args.session }),
        }),
      {
        app,
        out,
        json: args.json,
        scope: { session: args.session, workdir: args.workdir },
        actor,
      },
    );
  } finally {
    await app.close();
  }
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
