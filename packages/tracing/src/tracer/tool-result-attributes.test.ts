import type { ToolEndEvent, ToolOutput } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { toolResultAttributes } from './tool-result-attributes.js';

const call = { id: 'c1', name: 'lookup', arguments: {} };

function ended(
  observation: ToolOutput,
  fields: Partial<Pick<ToolEndEvent, 'status' | 'blocked'>> = {},
): ToolEndEvent {
  return {
    type: 'tool.end',
    runId: 'r',
    step: 1,
    call,
    index: 0,
    status: fields.status ?? 'completed',
    output: observation,
    observation,
    latencyMs: 3,
    blocked: fields.blocked ?? false,
  };
}

const defined = (attributes: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== undefined));

describe('the attributes of a finished tool call', () => {
  it('come from the typed failure alone: metadata, whatever it holds, is never read', () => {
    const observation: ToolOutput = {
      content: 'fine',
      isError: false,
      metadata: {
        error_type: 'not_found',
        retryable: false,
        attempt: 7,
        suggested_tool: 'search',
        doom_loop_detected: true,
      },
    };
    expect(defined(toolResultAttributes(ended(observation)))).toEqual({
      is_error: false,
      denied: false,
      suspended: false,
      doom_loop_detected: false,
    });
  });

  it('name a failure the executor judged by its kind, with the verdict, never the tool code', () => {
    const observation: ToolOutput = {
      content: 'Tool failed: …',
      isError: true,
      failure: {
        kind: 'not_found',
        code: 'city_missing',
        suggestedTool: 'search',
        retryable: true,
        attempt: 2,
      },
    };
    expect(defined(toolResultAttributes(ended(observation)))).toEqual({
      is_error: true,
      denied: false,
      suspended: false,
      doom_loop_detected: false,
      error_type: 'not_found',
      retryable: true,
      suggested_tool: 'search',
      attempt: 2,
    });
  });

  it('name a blocked repeat by the breaker code and mark the doom loop', () => {
    const observation: ToolOutput = {
      content: 'not executed',
      isError: true,
      failure: {
        kind: 'execution_error',
        code: 'repeat_call_blocked',
        retryable: false,
        attempt: 3,
      },
    };
    expect(defined(toolResultAttributes(ended(observation, { blocked: true })))).toEqual({
      is_error: true,
      denied: false,
      suspended: false,
      blocked: true,
      doom_loop_detected: true,
      error_type: 'repeat_call_blocked',
      retryable: false,
      attempt: 3,
    });
  });

  it('name a refusal of the tool policy `denied`, and any other refusal by its own code', () => {
    const policy = ended(
      { content: 'denied', isError: true, failure: { kind: 'denied', code: 'deny_list' } },
      { status: 'denied' },
    );
    const gate = ended(
      { content: 'refused', isError: true, failure: { kind: 'denied', code: 'drifted' } },
      { status: 'denied' },
    );
    const person = ended(
      { content: 'rejected', isError: true, failure: { kind: 'denied' } },
      { status: 'denied' },
    );
    expect(toolResultAttributes(policy).error_type).toBe('denied');
    expect(toolResultAttributes(gate).error_type).toBe('drifted');
    expect(toolResultAttributes(person).error_type).toBeUndefined();
  });

  it('name a failure the executor did not judge (a cancelled call) by its code, or not at all', () => {
    const coded = ended({
      content: 'cancelled',
      isError: true,
      failure: { kind: 'cancelled', code: 'cancelled', suggestedTool: 'read' },
    });
    const bare = ended({ content: 'cancelled', isError: true, failure: { kind: 'cancelled' } });
    expect(defined(toolResultAttributes(coded))).toEqual({
      is_error: true,
      denied: false,
      suspended: false,
      doom_loop_detected: false,
      error_type: 'cancelled',
    });
    expect(toolResultAttributes(bare).error_type).toBeUndefined();
  });

  it('name a pause approval_required', () => {
    const paused = ended({ content: 'needs approval', isError: true }, { status: 'suspended' });
    expect(defined(toolResultAttributes(paused))).toEqual({
      is_error: true,
      denied: false,
      suspended: true,
      doom_loop_detected: false,
      error_type: 'approval_required',
    });
  });
});
