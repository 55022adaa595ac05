import type { RunEvent, RunResult, RunStartEvent, ToolEndEvent } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../__fixtures__/harness.js';
import { runLog } from './run-log.js';

const SESSION = {
  key: 'feishu-0123456789ab-chat-oc_1',
  source: 'feishu',
  externalId: 'oc_1',
  displayName: 'oc_1',
  workdir: '/w',
} as const;

function start(runId: string, parent?: { runId: string; toolCallId: string }): RunStartEvent {
  return {
    type: 'run.start',
    runId,
    session: SESSION,
    mode: 'act',
    maxSteps: 8,
    provider: 'scripted',
    model: 'scripted',
    prompt: 'the secret prompt',
    caller: parent ? 'subagent' : 'main_loop',
    ...(parent ? { parent } : {}),
  };
}

function toolEnd(runId: string, end: Partial<ToolEndEvent>): ToolEndEvent {
  const output = { content: 'the secret output', isError: false };
  return {
    type: 'tool.end',
    runId,
    step: 1,
    call: { id: 'c1', name: 'read', arguments: { path: 'the secret path' } },
    index: 0,
    status: 'completed',
    output,
    observation: output,
    latencyMs: 12,
    blocked: false,
    ...end,
  };
}

function logged(events: RunEvent[]) {
  const logger = memoryLogger();
  let clock = 1000;
  const listen = runLog(logger, { chatId: 'oc_1', messageId: 'om_1' }, () => (clock += 250));
  for (const event of events) listen(event);
  return logger.records;
}

describe('runLog', () => {
  it.each<[string, Partial<ToolEndEvent>, Record<string, unknown>]>([
    ['ok', {}, { outcome: 'ok' }],
    [
      'failed, with its failure kind',
      { output: { content: 'x', isError: true, failure: { kind: 'not_found' } } },
      { outcome: 'failed', failure: 'not_found' },
    ],
    ['denied', { status: 'denied' }, { outcome: 'denied' }],
    ['blocked', { status: 'denied', blocked: true }, { outcome: 'blocked' }],
    ['awaiting_approval', { status: 'suspended' }, { outcome: 'awaiting_approval' }],
  ])('says a tool call ended %s', (_outcome, end, fields) => {
    const records = logged([start('r1'), toolEnd('r1', end)]);
    expect(records[1]).toEqual({
      level: 'debug',
      message: 'tool call',
      fields: {
        chat_id: 'oc_1',
        session_key: SESSION.key,
        run_id: 'r1',
        step: 1,
        tool: 'read',
        duration_ms: 12,
        failure: undefined,
        ...fields,
      },
    });
  });

  it("logs the explorer's tool calls under their own run, naming the run they belong to", () => {
    const records = logged([
      start('r1'),
      start('child', { runId: 'r1', toolCallId: 'c1' }),
      toolEnd('child', {}),
      start('unrelated', { runId: 'elsewhere', toolCallId: 'c9' }),
      toolEnd('unrelated', {}),
    ]);
    expect(records.map((r) => [r.message, r.fields.run_id, r.fields.parent_run_id])).toEqual([
      ['run started', 'r1', undefined],
      ['tool call', 'child', 'r1'],
    ]);
  });

  it('counts the run’s own tool calls and times it from start to finish', () => {
    const result: RunResult = {
      runId: 'r1',
      sessionKey: SESSION.key,
      workdir: '/w',
      text: 'the secret answer',
      stopReason: 'max_steps_exhausted',
      steps: 8,
      maxSteps: 8,
      mode: 'act',
      provider: 'scripted',
      model: 'scripted',
      usage: null,
    };
    const call = { id: 'c1', name: 'read', arguments: {} };
    const records = logged([
      start('r1'),
      { type: 'tool.start', runId: 'r1', step: 1, call, index: 0 },
      { type: 'tool.start', runId: 'r1', step: 2, call, index: 0 },
      { type: 'run.finish', runId: 'r1', result, state: {} as never },
    ]);
    expect(records.at(-1)).toMatchObject({
      level: 'info',
      message: 'run finished',
      fields: {
        stop_reason: 'max_steps_exhausted',
        steps: 8,
        tool_calls: 2,
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: undefined,
        duration_ms: 250,
      },
    });
    expect(JSON.stringify(records)).not.toContain('secret');
  });
});
