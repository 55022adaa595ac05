import type { RunEvent, SessionRef, ToolCall, ToolOutput } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { createTerminalOutput } from './terminal-output.js';

function capture(streamToStdout: boolean) {
  const out = { stdout: '', stderr: '' };
  const terminal = createTerminalOutput({
    stdout: (t) => {
      out.stdout += t;
    },
    stderr: (t) => {
      out.stderr += t;
    },
    color: false,
    streamToStdout,
  });
  return { out, terminal, emit: (...events: RunEvent[]) => events.forEach(terminal.onEvent) };
}

const session: SessionRef = {
  key: 'k',
  source: 'cli',
  externalId: 'd',
  displayName: 'd',
  workdir: '/w',
};
const start = (runId = 'r', parent?: { runId: string; toolCallId: string }): RunEvent => ({
  type: 'run.start',
  runId,
  session,
  mode: 'act',
  maxSteps: 3,
  provider: 'scripted',
  model: null,
  prompt: 'p',
  caller: parent ? 'subagent' : 'main_loop',
  ...(parent ? { parent } : {}),
});
const step = (runId = 'r'): RunEvent => ({
  type: 'step.start',
  runId,
  step: 1,
  maxSteps: 3,
  phase: 'act',
  toolChoice: 'auto',
  tools: ['read'],
  messageCount: 2,
});
const delta = (text: string): RunEvent => ({ type: 'text.delta', runId: 'r', step: 1, text });
const answer = (text: string, toolCalls: ToolCall[] = []): RunEvent => ({
  type: 'model.response',
  runId: 'r',
  step: 1,
  attempt: 1,
  message: { role: 'assistant', content: text, ...(toolCalls.length ? { toolCalls } : {}) },
  provider: 'scripted',
  model: null,
  latencyMs: 1,
});
const call: ToolCall = { id: '1', name: 'read', arguments: { path: 'a.txt' } };
const toolStart = (c: ToolCall, runId = 'r'): RunEvent => ({
  type: 'tool.start',
  runId,
  step: 1,
  call: c,
  index: 0,
});
const toolEnd = (output: ToolOutput): RunEvent => ({
  type: 'tool.end',
  runId: 'r',
  step: 1,
  call,
  index: 0,
  status: 'completed',
  output,
  observation: output,
  latencyMs: 1,
  blocked: false,
});

describe('terminal output', () => {
  it('streams assistant text to stdout as it arrives on an interactive terminal', () => {
    const { out, terminal, emit } = capture(true);
    emit(start(), step(), delta('Hel'), delta('lo'), answer('Hello'));
    expect(out.stdout).toBe('Hello\n');
    expect(terminal.lastStreamedText()).toBe('Hello');
    expect(out.stderr).toBe('· step 1/3 (act)\n');
  });

  it('keeps stdout for the final answer when piped and reports text beside tool calls on stderr', () => {
    const { out, terminal, emit } = capture(false);
    emit(
      start(),
      delta('thinking'),
      answer('thinking', [call]),
      toolStart(call),
      toolEnd({ content: 'x\ny', isError: false }),
      toolEnd({ content: 'path does not exist: a.txt\nmore', isError: true }),
    );
    expect(out.stdout).toBe('');
    expect(terminal.lastStreamedText()).toBe('');
    expect(out.stderr).toBe(
      'thinking\n→ read {"path":"a.txt"}\n← read ok (3 chars)\n← read failed: path does not exist: a.txt\n',
    );
  });

  it('shows undecodable arguments instead of an empty object', () => {
    const { out, emit } = capture(false);
    emit(start(), toolStart({ ...call, arguments: {}, argumentsError: 'invalid JSON' }));
    expect(out.stderr).toBe('→ read (unparseable arguments: invalid JSON)\n');
  });

  it('tags the start, tool lines and finish of a nested run with its session, and streams none of its text', () => {
    const { out, emit } = capture(true);
    const childSession = { ...session, key: 'parent-k-explore-0123456789ab' };
    // A child's events carry the calling run's id; its own run.finish does not end the parent.
    const nested = (event: RunEvent): RunEvent => ({ ...event, parentRunId: 'r' });
    emit(
      start(),
      nested({
        ...start('child', { runId: 'r', toolCallId: '1' }),
        session: childSession,
      } as RunEvent),
      nested(step('child')),
      nested({ type: 'text.delta', runId: 'child', step: 1, text: 'child thinking' }),
      nested(toolStart(call, 'child')),
      nested({ ...toolEnd({ content: 'abc', isError: false }), runId: 'child' } as RunEvent),
    );
    emit(
      nested({
        type: 'run.finish',
        runId: 'child',
        result: { stopReason: 'final', steps: 2 } as never,
        state: {} as never,
      }),
    );
    expect(out.stdout).toBe('');
    expect(out.stderr.split('\n')).toEqual([
      '[subagent_session=parent-k-explore-0123456789ab] started (max 3 steps)',
      '[subagent_session=parent-k-explore-0123456789ab] → read {"path":"a.txt"}',
      '[subagent_session=parent-k-explore-0123456789ab] ← read ok (3 chars)',
      '[subagent_session=parent-k-explore-0123456789ab] finished: final after 2 steps',
      '',
    ]);
  });

  it('shows nothing of a run that is not nested under the one the command started', () => {
    const { out, emit } = capture(false);
    emit(
      start(),
      { ...start('other', { runId: 'elsewhere', toolCallId: '1' }), parentRunId: 'elsewhere' },
      { ...toolStart(call, 'other'), parentRunId: 'elsewhere' },
    );
    expect(out.stderr).toBe('');
  });

  it('shows a paused call as waiting for approval, not as a failure', () => {
    const { out, emit } = capture(false);
    const paused: RunEvent = {
      ...(toolEnd({ content: 'this tool call needs approval', isError: true }) as Extract<
        RunEvent,
        { type: 'tool.end' }
      >),
      status: 'suspended',
    };
    emit(start(), toolStart(call), paused, {
      type: 'approval.required',
      runId: 'r',
      step: 1,
      call,
      index: 0,
      approvalId: 'ap_1',
      checkpointId: 'cp_1',
      summary: 'this tool call needs approval',
    });
    expect(out.stderr).toBe('→ read {"path":"a.txt"}\n⏸ read waits for approval (request ap_1)\n');
  });

  it('says who decided a resumed call, and why it was rejected', () => {
    const { out, emit } = capture(false);
    const resumed = (decision: 'approve' | 'reject', reason?: string): RunEvent => ({
      type: 'approval.resumed',
      runId: 'r',
      approvalId: 'ap_1',
      checkpointId: 'cp_1',
      decision,
      actor: 'cli:alice',
      waitMs: 5,
      call,
      ...(reason === undefined ? {} : { reason }),
    });
    emit(start(), resumed('approve'), resumed('reject', 'not \x1b[31mnow'));
    expect(out.stderr).toBe(
      '✓ read approved by cli:alice (request ap_1)\n✗ read rejected by cli:alice: not \\x1b[31mnow (request ap_1)\n',
    );
  });

  it('shows escape sequences in tool results and model text as text', () => {
    const { out, emit } = capture(false);
    emit(
      start(),
      answer('look \x1b[2J here', [call]),
      toolEnd({ content: 'bad \x1b]0;title\x07 path\nmore', isError: true }),
    );
    expect(out.stderr).toBe('look \\x1b[2J here\n← read failed: bad \\x1b]0;title\\x07 path\n');
  });

  it('streams the answer to a terminal with escape sequences shown, even one split across deltas', () => {
    const { out, terminal, emit } = capture(true);
    const text = 'a \x1b]0;pwned\x07 b \x1b[2J c \u202e d';
    emit(start(), step(), delta(text.slice(0, 3)), delta(text.slice(3)), answer(text));
    expect(out.stdout).toBe('a \\x1b]0;pwned\\x07 b \\x1b[2J c \\u202e d\n');
    // What was streamed is compared with the answer as the model wrote it: no second copy.
    expect(terminal.lastStreamedText()).toBe(text);
  });

  it('shows tool names and arguments with escape sequences and bidi overrides as text', () => {
    const { out, emit } = capture(false);
    const hostile: ToolCall = {
      id: '2',
      name: 'read\x1b[2J',
      arguments: { path: 'a\u202etxt.exe' },
    };
    emit(start(), toolStart(hostile));
    expect(out.stderr).toBe('→ read\\x1b[2J {"path":"a\\u202etxt.exe"}\n');
  });

  it('never cuts an emoji in half when it shortens a long preview', () => {
    const { out, emit } = capture(false);
    emit(start(), toolStart({ ...call, arguments: { text: `${'x'.repeat(148)}🙂🙂🙂🙂` } }));
    expect(out.stderr).not.toMatch(/[\ud800-\udfff]…/u);
    expect(out.stderr).toContain('🙂…');
  });
});
