import type { Channel, ToolCall } from '@tiny-claw/core';

const ARGS_PREVIEW = 160;

/** Progress of a run as lines on a stream (stderr), so stdout carries only the answer. */
export function createTerminalChannel(
  write: (text: string) => void,
  options: { color: boolean },
): Channel {
  const paint = (code: string, text: string) =>
    options.color ? `\x1b[${code}m${text}\x1b[0m` : text;
  return {
    onStep: ({ step, maxSteps, phase }) => {
      write(`${paint('2', `· step ${step}/${maxSteps} (${phase})`)}\n`);
    },
    onAssistantMessage: ({ text, toolCalls }) => {
      // The final answer goes to stdout; only the text that accompanies tool calls is progress.
      if (toolCalls > 0 && text.trim()) write(`${text.trim()}\n`);
    },
    onToolCall: ({ call }) => {
      write(`${paint('36', `→ ${call.name}`)} ${previewArgs(call)}\n`);
    },
    onToolResult: ({ call, output }) => {
      const firstLine = output.content.split('\n', 1)[0] ?? '';
      const summary = output.isError
        ? paint('31', `← ${call.name} failed: ${truncate(firstLine, 200)}`)
        : paint('32', `← ${call.name} ok (${output.content.length} chars)`);
      write(`${summary}\n`);
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
