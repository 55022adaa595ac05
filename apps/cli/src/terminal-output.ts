import type { RunEvent, RunEventListener, ToolCall } from '@tiny-claw/core';
import { painter, printable } from './terminal-text.js';

const ARGS_PREVIEW = 160;

/** Where the terminal output writes, and whether the answer streams to stdout as it arrives. */
export interface TerminalOutputOptions {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  color: boolean;
  /** Stream assistant text to stdout live (an interactive terminal); otherwise only progress lines. */
  streamToStdout: boolean;
}

/** A run-event listener that also remembers whether the final answer was already shown. */
export interface TerminalOutput {
  onEvent: RunEventListener;
  /** The text streamed for the most recent assistant turn ('' when nothing was streamed). */
  lastStreamedText(): string;
}

/**
 * Progress of a run for a terminal, from its event stream: step, tool-call and tool-result lines
 * on stderr, and — when attached to an interactive terminal — the assistant's text on stdout as it
 * arrives. Lines of runs nested under it (subagents) are tagged `[subagent_session=<key>]`: their
 * start, tool calls, tool results and finish; their text is not streamed.
 *
 * @example
 * const terminal = createTerminalOutput({ stdout, stderr, color: true, streamToStdout: true });
 * await app.run({ prompt, onEvent: terminal.onEvent });
 */
export function createTerminalOutput(options: TerminalOutputOptions): TerminalOutput {
  const { stdout, stderr } = options;
  const paint = painter(options.color);
  let streamed = '';
  let runId: string | undefined;

  const callLine = (event: Extract<RunEvent, { type: 'tool.start' }>): string =>
    `${paint('cyan', `→ ${printable(event.call.name)}`)} ${previewArgs(event.call)}`;
  const resultLine = ({ call, output }: Extract<RunEvent, { type: 'tool.end' }>): string => {
    const firstLine = printable(output.content.split('\n', 1)[0] ?? '');
    return output.isError
      ? paint('red', `← ${printable(call.name)} failed: ${truncate(firstLine, 200)}`)
      : paint('green', `← ${printable(call.name)} ok (${output.content.length} chars)`);
  };

  const show = (event: RunEvent): void => {
    switch (event.type) {
      case 'step.start':
        streamed = '';
        stderr(`${paint('dim', `· step ${event.step}/${event.maxSteps} (${event.phase})`)}\n`);
        return;
      case 'text.delta':
        if (!options.streamToStdout) return;
        streamed += event.text;
        // Character by character, so a sequence split across two deltas is caught all the same.
        stdout(printable(event.text, { multiline: true }));
        return;
      case 'model.response': {
        const text = event.message.content;
        const toolCalls = event.message.toolCalls?.length ?? 0;
        if (options.streamToStdout) {
          if (streamed && !streamed.endsWith('\n')) stdout('\n');
          return;
        }
        // Piped output: the final answer goes to stdout at the end; text beside tool calls is progress.
        if (toolCalls > 0 && text.trim())
          stderr(`${printable(text.trim(), { multiline: true })}\n`);
        return;
      }
      case 'tool.start':
        stderr(`${callLine(event)}\n`);
        return;
      case 'tool.end':
        // A paused call is not a failure; `approval.required` says what happens next.
        if (event.status !== 'suspended') stderr(`${resultLine(event)}\n`);
        return;
      case 'approval.required':
        stderr(
          `${paint('yellow', `⏸ ${printable(event.call.name)} waits for approval`)} ${paint('dim', `(request ${event.approvalId})`)}\n`,
        );
        return;
      case 'approval.resumed': {
        const verdict =
          event.decision === 'approve'
            ? paint(
                'green',
                `✓ ${printable(event.call.name)} approved by ${printable(event.actor)}`,
              )
            : paint(
                'red',
                `✗ ${printable(event.call.name)} rejected by ${printable(event.actor)}${event.reason ? `: ${printable(event.reason)}` : ''}`,
              );
        stderr(`${verdict} ${paint('dim', `(request ${event.approvalId})`)}\n`);
        return;
      }
      default:
        return;
    }
  };

  // Runs nested under a call of this run (subagents): their session, to tag their lines with.
  const nested = new Map<string, string>();
  const showNested = (event: RunEvent, session: string): void => {
    const tag = paint('magenta', `[subagent_session=${printable(session)}]`);
    switch (event.type) {
      case 'run.start':
        stderr(`${tag} ${paint('dim', `started (max ${event.maxSteps} steps)`)}\n`);
        return;
      case 'tool.start':
        stderr(`${tag} ${callLine(event)}\n`);
        return;
      case 'tool.end':
        if (event.status !== 'suspended') stderr(`${tag} ${resultLine(event)}\n`);
        return;
      case 'run.finish':
        stderr(
          `${tag} ${paint('dim', `finished: ${event.result.stopReason} after ${event.result.steps} step${event.result.steps === 1 ? '' : 's'}`)}\n`,
        );
        return;
      default:
        return;
    }
  };

  return {
    lastStreamedText: () => streamed,
    onEvent: (event) => {
      // A nested run's events name the run that started it; the run shown here names none.
      const parentRunId = event.parentRunId;
      if (parentRunId === undefined) {
        if (event.type === 'run.start' && runId === undefined) runId = event.runId;
        if (event.runId === runId) show(event);
        return;
      }
      if (event.type === 'run.start' && (parentRunId === runId || nested.has(parentRunId))) {
        nested.set(event.runId, event.session.key);
      }
      const session = nested.get(event.runId);
      if (session !== undefined) showNested(event, session);
    },
  };
}

function previewArgs(call: ToolCall): string {
  if (call.argumentsError)
    return `(unparseable arguments: ${truncate(printable(call.argumentsError), ARGS_PREVIEW)})`;
  return truncate(printable(JSON.stringify(call.arguments)), ARGS_PREVIEW);
}

// By code point, so an emoji is never cut in half into a lone surrogate.
function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}
