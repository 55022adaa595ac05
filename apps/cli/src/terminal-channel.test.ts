import { describe, expect, it } from 'vitest';
import { createTerminalChannel } from './terminal-channel.js';

function capture(streamToStdout: boolean) {
  const out = { stdout: '', stderr: '' };
  const channel = createTerminalChannel({
    stdout: (t) => {
      out.stdout += t;
    },
    stderr: (t) => {
      out.stderr += t;
    },
    color: false,
    streamToStdout,
  });
  return { out, channel };
}

const call = { id: '1', name: 'read', arguments: { path: 'a.txt' } };

describe('terminal channel', () => {
  it('streams assistant text to stdout as it arrives on an interactive terminal', () => {
    const { out, channel } = capture(true);
    channel.onStep?.({ step: 1, maxSteps: 3, phase: 'act' });
    channel.onTextDelta?.('Hel');
    channel.onTextDelta?.('lo');
    channel.onAssistantMessage?.({ step: 1, text: 'Hello', toolCalls: 0 });
    expect(out.stdout).toBe('Hello\n');
    expect(channel.lastStreamedText()).toBe('Hello');
    expect(out.stderr).toBe('· step 1/3 (act)\n');
  });

  it('keeps stdout for the final answer when piped and reports text beside tool calls on stderr', () => {
    const { out, channel } = capture(false);
    channel.onTextDelta?.('thinking');
    channel.onAssistantMessage?.({ step: 1, text: 'thinking', toolCalls: 1 });
    channel.onToolCall?.({ call, index: 0 });
    channel.onToolResult?.({ call, index: 0, output: { content: 'x\ny', isError: false } });
    channel.onToolResult?.({
      call,
      index: 0,
      output: { content: 'path does not exist: a.txt\nmore', isError: true },
    });
    expect(out.stdout).toBe('');
    expect(channel.lastStreamedText()).toBe('');
    expect(out.stderr).toBe(
      'thinking\n→ read {"path":"a.txt"}\n← read ok (3 chars)\n← read failed: path does not exist: a.txt\n',
    );
  });

  it('shows undecodable arguments instead of an empty object', () => {
    const { out, channel } = capture(false);
    channel.onToolCall?.({
      call: { ...call, arguments: {}, argumentsError: 'invalid JSON' },
      index: 0,
    });
    expect(out.stderr).toBe('→ read (unparseable arguments: invalid JSON)\n');
  });
});
