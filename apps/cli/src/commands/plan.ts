import { ConfigurationError, renderPlan, validateSessionName } from '@tiny-claw/core';
import { ExitCode } from '../exit-codes.js';
import { loadApplication } from '../load-app.js';
import type { Output } from '../output.js';
import { type PlanArgs, parsePlanArgs, planHelp } from '../plan-args.js';
import { printable, printableJson } from '../terminal-text.js';
import { UsageError } from '../usage-error.js';

/** What `tiny-claw plan` prints besides the plan itself. */
const planMessages = {
  noPlan: (session: string, dir: string, flag: string): string =>
    `No plan for session ${session} yet (looked in ${dir}).\n` +
    `Write one with: tiny-claw run --mode plan${flag} "<request>"\n`,
  nothingRemoved: (session: string, dir: string): string =>
    `No plan to remove for session ${session} (looked in ${dir}).\n`,
  removed: (session: string, paths: readonly string[]): string =>
    `Removed the plan of session ${session}:\n${paths.map((path) => `  ${path}\n`).join('')}`,
};

/**
 * `tiny-claw plan show|reset`: print or delete the PLAN.md / TODO.md of a session. Never calls the
 * model. Exits 0 whether or not the session has a plan (that is an answer, and it says so); 2 for
 * bad arguments, 78 for bad settings, 1 for an unreadable plan.
 *
 * @example
 * process.exitCode = await planCommand(['show', '--session', 'auth'], processOutput());
 */
export async function planCommand(argv: string[], out: Output): Promise<number> {
  const args = parsePlanArgs(argv);
  if (args.help || args.action === undefined) {
    out.stdout(planHelp);
    return ExitCode.ok;
  }
  if (args.session !== undefined) checkSessionName(args.session);
  const app = await loadApplication({ workdir: args.workdir });
  // The app may have started MCP servers; they stop when the command is done.
  try {
    const { session, store } = await app.plans(args.session);
    const name = JSON.stringify(session.displayName);
    if (args.action === 'reset') {
      const removed = await store.reset();
      if (args.json) {
        out.stdout(`${printableJson({ session: session.key, dir: store.dir, removed })}\n`);
      } else if (removed.length === 0) {
        out.stdout(planMessages.nothingRemoved(name, store.dir));
      } else {
        out.stdout(planMessages.removed(name, removed));
      }
      return ExitCode.ok;
    }
    const snapshot = await store.read();
    if (args.json) {
      const report = {
        session: session.key,
        dir: store.dir,
        exists: snapshot !== undefined,
        plan: snapshot?.plan ?? null,
        todo: snapshot?.todo ?? null,
        items: (snapshot?.items ?? []).map(({ id, text, done }) => ({ id, text, done })),
        next: snapshot?.next ? { id: snapshot.next.id, text: snapshot.next.text } : null,
      };
      out.stdout(`${printableJson(report)}\n`);
    } else if (!snapshot) {
      out.stdout(planMessages.noPlan(name, store.dir, sessionFlag(args)));
    } else {
      // The plan is the model's text: made safe on a terminal, byte for byte into a pipe.
      const plan = renderPlan(snapshot);
      out.stdout(`${out.interactive ? printable(plan, { multiline: true }) : plan}\n`);
    }
    return ExitCode.ok;
  } finally {
    await app.close();
  }
}

function sessionFlag(args: PlanArgs): string {
  return args.session === undefined ? '' : ` --session ${JSON.stringify(args.session)}`;
}

function checkSessionName(name: string): void {
  try {
    validateSessionName(name);
  } catch (error) {
    if (error instanceof ConfigurationError) {
      throw new UsageError(`--session: ${error.message}`, 'plan');
    }
    throw error;
  }
}
