import { ConfigurationError, defineTool, type Tool } from '@tiny-claw/core';
import { z } from 'zod';
import { EXPLORER_LIMITS } from './limits.js';
import { SubagentRunner } from './subagent-runner.js';

/**
 * Options of {@link exploreTool}.
 *
 * @example
 * const options: ExploreToolOptions = { maxSteps: 8 };
 */
export interface ExploreToolOptions {
  /** Steps an exploration gets when the model does not say (1–12, default 6). */
  maxSteps?: number;
  /**
   * Read-only tools the explorer may use even when the calling run is not shown them (so an agent
   * can explore without reading itself). The agent's allow and deny lists still apply to them.
   * Besides these, the explorer gets the read-only tools the calling run has.
   */
  tools?: readonly Tool[];
}

const exploreText = {
  description:
    'Hand a reading-heavy investigation (reading a lot of code, searching across files, locating something in logs) to a read-only Explorer subagent. It works in its own context with the read-only tools you have and returns only a short plain-text report with the evidence. Use it when finding the answer would take many reads; give a precise task.',
  task: 'What to find out, precisely: the question and any names, paths or clues you already have.',
  maxSteps: (fallback: number) =>
    `Most steps the explorer may take (1 to ${EXPLORER_LIMITS.maxSteps}, default ${fallback}).`,
  tooManySteps: `max_steps may be at most ${EXPLORER_LIMITS.maxSteps}: split the task or narrow it instead.`,
  noSession:
    'explore needs a session: it runs only inside an agent run (createAgent), which gives every call one.',
  noHost:
    'explore needs an agent run to start its child in: add the tool to createAgent({ tools }) rather than calling it directly.',
} as const;

/**
 * The `explore` tool: the model hands an investigation to a read-only Explorer subagent and gets
 * back only its report. The child inherits the calling agent's provider, store and policy (its
 * tools are the read-only ones the calling run may use), its events nest under the call in traces
 * and logs, and its tokens count in the calling run. Not parallel-safe: several explorations in one
 * turn run one after another.
 *
 * @throws ConfigurationError when `maxSteps` is not an integer from 1 to 12.
 *
 * @example
 * const agent = createAgent({ provider, tools: [...workspaceTools({ workdir }), exploreTool()] });
 */
export function exploreTool(options: ExploreToolOptions = {}): Tool {
  const fallback = options.maxSteps ?? EXPLORER_LIMITS.defaultMaxSteps;
  if (!Number.isInteger(fallback) || fallback < 1 || fallback > EXPLORER_LIMITS.maxSteps) {
    throw new ConfigurationError(
      `exploreTool: maxSteps must be an integer from 1 to ${EXPLORER_LIMITS.maxSteps} (got ${String(options.maxSteps)}).`,
    );
  }
  const own = [...(options.tools ?? [])];
  for (const tool of own) {
    if (tool.readOnly !== true) {
      throw new ConfigurationError(
        `exploreTool: the explorer may only be given read-only tools, and ${JSON.stringify(tool.name)} is not one (Tool.readOnly).`,
      );
    }
  }
  return defineTool({
    name: 'explore',
    description: exploreText.description,
    parameters: z.strictObject({
      task: z
        .string()
        .trim()
        .min(1, { error: 'task must not be empty: say what to look for' })
        .max(EXPLORER_LIMITS.maxTaskChars, {
          error: `task may be at most ${EXPLORER_LIMITS.maxTaskChars} characters`,
        })
        .describe(exploreText.task),
      max_steps: z
        .number()
        .int()
        .min(1, { error: 'max_steps must be at least 1' })
        .max(EXPLORER_LIMITS.maxSteps, { error: exploreText.tooManySteps })
        .default(fallback)
        .describe(exploreText.maxSteps(fallback)),
    }),
    // An agent's policy may name the explorer's own tools (`deny: ['read']` keeps it from reading).
    subagentTools: own.map((tool) => tool.name),
    run: async ({ task, max_steps }, ctx) => {
      if (!ctx.session)
        return { content: exploreText.noSession, failure: { kind: 'execution_error' } };
      if (!ctx.subagents)
        return { content: exploreText.noHost, failure: { kind: 'execution_error' } };
      const outcome = await new SubagentRunner(ctx.subagents, { tools: own }).runExplorer(
        task,
        ctx.session,
        max_steps,
      );
      const metadata = {
        child_session: outcome.childSession.key,
        stop_reason: outcome.stopReason,
        steps: outcome.steps,
        report_chars: outcome.report.length,
      };
      switch (outcome.stopReason) {
        case 'final':
        case 'max_steps_exhausted':
          return { content: outcome.report, metadata };
        case 'cancelled':
          return { content: outcome.report, failure: { kind: 'cancelled' }, metadata };
        default:
          return { content: outcome.report, failure: { kind: 'execution_error' }, metadata };
      }
    },
  });
}
