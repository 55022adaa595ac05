import type { Channel, ToolCall } from '@tiny-claw/core';

const ARGS_PREVIEW = 160;

/** Where the terminal channel writes, and whether the answer streams to stdout as it arrives. */
export interface TerminalChannelOptions {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  color: boolean;
  /** Stream assistant text to stdout live (an interactive terminal); otherwise only progress lines. */
  streamToStdout: boolean;
}

/** A channel that also remembers whether the final answer was already shown. */
export interface TerminalChannel extends Channel {
  /** The text streamed for the most recent assistant turn ('' when nothing was streamed). */
  lastStreamedText(): string;
}

/**
 * Progress of a run for a terminal: step, tool-call and tool-result lines on stderr, and — when
 * attached to an interactive terminal — the assistant's text on stdout as it arrives.
 *
 * @example
 * const channel = createTerminalChannel({ stdout, stderr, color: true, streamToStdout: true });
 */
export function createTerminalChannel(options: TerminalChannelOptions): TerminalChannel {
  const { stdout, stderr } = options;
  const paint = (code: string, text: string) =>
    options.color ? `\x1b[${code}m${text}\x1b[0m` : text;
  let streamed = '';
  return {
    lastStreamedText: () => streamed,
    onStep: ({ step, maxSteps, phase }) => {
      streamed = '';
      stderr(`${paint('2', `· step ${step}/${maxSteps} (${phase})`)}\n`);
    },
    onTextDelta: (text) => {
      if (!options.streamToStdout) return;
      streamed += text;
      stdout(text);
    },
    onAssistantMessage: ({ text, toolCalls }) => {
      if (options.streamToStdout) {
        if (streamed && !streamed.endsWith('\n')) stdout('\n');
        return;
      }
      // Piped output: the final answer goes to stdout at the end; text beside tool calls is progress.
      if (toolCalls > 0 && text.trim()) stderr(`${text.trim()}\n`);
    },
    onToolCall: ({ call }) => {
      stderr(`${paint('36', `→ ${call.name}`)} ${previewArgs(call)}\n`);
    },
    onToolResult: ({ call, output }) => {
      const firstLine = output.content.split('\n', 1)[0] ?? '';
      const summary = output.isError
        ? paint('31', `← ${call.name} failed: ${truncate(firstLine, 200)}`)
        : paint('32', `← ${call.name} ok (${output.content.length} chars)`);
      stderr(`${summary}\n`);
    },
  };
}

function previewArgs(call: ToolCall): string {
  if (call.argumentsError)
    return `(unparseable arguments: ${truncate(call.argumentsError, ARGS_PREVIEW)})`;
  return truncate(JSON.stringify(call.arguments), ARGS_PREVIEW);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
