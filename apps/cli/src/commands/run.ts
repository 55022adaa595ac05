import {
  ConfigurationError,
  MAX_PROMPT_BYTES,
  PromptTooLargeError,
  validateSessionName,
} from '@tiny-claw/core';
import type { RunArgs } from '../args.js';
import { listSessions } from '../chat/session-list.js';
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
    // --continue: the session used last in this workdir (the default one when there is none).
    const session = args.continue
      ? ((await listSessions(app.settings.stateDir, app.settings.workdir))[0]?.name ?? 'default')
      : args.session;
    const prompt = args.readStdin ? await readPrompt(process.stdin) : (args.prompt ?? '');
    // The sandbox confines bash only, so it is worth a word only when bash may run — and only
    // then is it probed (app.health() starts a child process the first request would wait for).
    const sandbox = app.agent.tools.includes('bash') ? app.health().sandbox : undefined;
    out.stderr(
      `tiny-claw · provider ${app.provider.name} (${app.providerReason}) · mode ${args.mode}${sandbox ? ` · sandbox ${sandbox.active}` : ''}\n`,
    );
    // A sandbox that `auto` could not set up is worth one warning; one turned off on purpose is not.
    if (sandbox && sandbox.active === 'off' && sandbox.mode !== 'off') {
      out.stderr(
        `tiny-claw: warning: bash commands run unconfined: ${sandbox.reason}. Install bubblewrap (Debian/Ubuntu: apt install bubblewrap) to confine them, or set TINY_CLAW_SANDBOX=off to silence this.\n`,
      );
    }
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
          // The CLI remembers between runs: without --session, in the workdir's `default` session.
          session: session ?? 'default',
        }),
      {
        app,
        out,
        json: args.json,
        scope: { session, workdir: args.workdir },
        actor,
      },
    );
  } finally {
    await app.close();
  }
}

/**
 * The prompt piped on stdin, read only up to the prompt limit: past it reading stops and the run
 * is refused, so a runaway pipe cannot fill memory. Core checks the exact size of what is read.
 */
async function readPrompt(input: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of input) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += buffer.length;
    if (bytes > MAX_PROMPT_BYTES) throw new PromptTooLargeError(bytes, { atLeast: true });
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
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
