import type { JsonObject, Message, RunState } from '@tiny-claw/core';
import { redactSecrets } from '@tiny-claw/core/utils';

/**
 * Put first in a tool result the redaction changed, so a resumed model that needs one of the
 * values reads it again (the read is judged again) instead of copying a marker.
 */
const REDACTED_NOTE =
  '[Secrets in this result were redacted when the run paused for approval. Read the source again if you need one of the values.]\n';

/** Every string in a JSON value, redacted; keys and the shape are kept. */
function redactJson(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map(redactJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, redactJson(inner)]),
    );
  }
  return value;
}

function redactToolResult(message: Message): Message {
  const content = redactSecrets(message.content);
  const redacted: Message = {
    ...message,
    content: content === message.content ? content : `${REDACTED_NOTE}${content}`,
  };
  if (message.metadata !== undefined) {
    redacted.metadata = redactJson(message.metadata) as JsonObject;
  }
  return redacted;
}

function redactMessage(message: Message, prompt: string, waiting: ReadonlySet<string>): Message {
  switch (message.role) {
    case 'system':
      return message;
    case 'user':
      return message.content === prompt
        ? message
        : { ...message, content: redactSecrets(message.content) };
    case 'tool':
      return redactToolResult(message);
    case 'assistant': {
      const redacted: Message = { ...message, content: redactSecrets(message.content) };
      if (message.toolCalls !== undefined) {
        redacted.toolCalls = message.toolCalls.map((call) =>
          waiting.has(call.id)
            ? call
            : { ...call, arguments: redactJson(call.arguments) as JsonObject },
        );
      }
      return redacted;
    }
  }
}

/**
 * The run state as a checkpoint keeps it: what the resumed run needs verbatim, and everything else
 * passed through the shared secret-value rules (the ones the memory file and traces use).
 *
 * Kept as it is:
 * - the calls of the paused turn: the waiting call must hash exactly as it did at the request, and
 *   the calls after it run as the model wrote them (they are in the approval record too), with
 *   their statuses and the requests they wait on;
 * - the person's prompt (as the run's prompt and as its message) and the system messages: the task
 *   and the instructions, which a secret in them is part of — redacting would change the job;
 * - the tools' carried state (file fingerprints, no file contents), counts and the session.
 *
 * Redacted, because the resumed run only shows them to the model again and never runs them:
 * - tool results, of finished calls and of the paused turn's calls that already ran — the usual
 *   place a raw credential lands (an `env`, a `.env` or config file read, a token in a log); a
 *   result that changed starts with a note saying so, so a model needing a value reads it again;
 * - the model's text and the arguments of its earlier calls, which may repeat such a value;
 * - other user-role notes (memory, plan prompts, loop warnings), which quote the model or tools;
 * - the plan's last tool error and the failure counts' keys (a call's arguments): a repeated
 *   failing call whose arguments held a secret is counted afresh after the pause.
 *
 * @example
 * await checkpoints.save({ ...record, state: redactCheckpointState(state) });
 */
export function redactCheckpointState(state: RunState): RunState {
  const waiting = new Set((state.batch?.calls ?? []).map((entry) => entry.call.id));
  const prompt = state.prompt.trim();
  const failures = new Map<string, number>();
  for (const [key, count] of Object.entries(state.failures)) {
    const redacted = redactSecrets(key);
    failures.set(redacted, Math.max(failures.get(redacted) ?? 0, count));
  }
  const redacted: RunState = {
    ...state,
    messages: state.messages.map((message) => redactMessage(message, prompt, waiting)),
    lastText: redactSecrets(state.lastText),
    failures: Object.fromEntries(failures),
  };
  if (state.plan?.toolError !== undefined) {
    redacted.plan = { ...state.plan, toolError: redactSecrets(state.plan.toolError) };
  }
  if (state.batch !== undefined) {
    redacted.batch = {
      ...state.batch,
      calls: state.batch.calls.map((entry) =>
        entry.observation === undefined
          ? entry
          : { ...entry, observation: redactToolResult(entry.observation) },
      ),
    };
  }
  return redacted;
}
