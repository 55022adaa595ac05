import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { traceSpan } from './__fixtures__/sample-trace.js';
import { genAiProviderName, toGenAiSpan } from './index.js';

const context = { sessionKey: 'cli-1a2b3c4d5e6f-default' };

describe('spans map to the OTel GenAI semantic conventions', () => {
  it.each([
    ['claude', 'anthropic'],
    ['Anthropic', 'anthropic'],
    ['openai', 'openai'],
    ['scripted', 'scripted'],
  ])('provider %s → gen_ai.provider.name %s', (ours, theirs) => {
    expect(genAiProviderName(ours)).toBe(theirs);
  });

  it('an llm.call without a model (a failed call) is plain `chat`, with error.type and ERROR status', () => {
    const shape = toGenAiSpan(
      traceSpan({
        span_id: '1',
        kind: 'llm.call',
        name: 'llm.openai',
        status: 'error',
        attributes: { provider: 'openai', latency_ms: 12, error_type: 'rate_limit' },
      }),
      context,
    );
    expect(shape.name).toBe('chat');
    expect(shape.kind).toBe(SpanKind.CLIENT);
    expect(shape.status).toEqual({ code: SpanStatusCode.ERROR, message: 'rate_limit' });
    expect(shape.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'error.type': 'rate_limit',
      'tiny_claw.latency_ms': 12,
    });
    expect(shape.attributes).not.toHaveProperty('gen_ai.request.model');
    expect(shape.attributes).not.toHaveProperty('tiny_claw.error_type');
  });

  it('an error span without an error_type gets the convention fallback `_OTHER`', () => {
    const shape = toGenAiSpan(
      traceSpan({ span_id: '1', kind: 'agent.run', status: 'error' }),
      context,
    );
    expect(shape.attributes['error.type']).toBe('_OTHER');
    expect(shape.status).toEqual({ code: SpanStatusCode.ERROR, message: 'agent.run failed' });
  });

  it('a cancelled span is not an error: status UNSET, tiny_claw.status says cancelled', () => {
    const shape = toGenAiSpan(
      traceSpan({
        span_id: '1',
        kind: 'tool.call',
        name: 'tool.bash',
        status: 'cancelled',
        attributes: { error_type: 'cancelled' },
      }),
      context,
    );
    expect(shape.name).toBe('execute_tool bash');
    expect(shape.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(shape.attributes).not.toHaveProperty('error.type');
    expect(shape.attributes).toMatchObject({
      'tiny_claw.status': 'cancelled',
      'tiny_claw.error_type': 'cancelled',
    });
  });

  it('tool.call reads the snake_case keys of the original schema too', () => {
    const shape = toGenAiSpan(
      traceSpan({
        span_id: '1',
        kind: 'tool.call',
        name: 'tool.read',
        attributes: { tool_name: 'read', tool_call_id: 'call_9' },
      }),
      context,
    );
    expect(shape.name).toBe('execute_tool read');
    expect(shape.attributes).toMatchObject({
      'gen_ai.tool.name': 'read',
      'gen_ai.tool.call.id': 'call_9',
    });
    expect(shape.attributes).not.toHaveProperty('tiny_claw.tool_name');
  });

  it('agent.step is `step {n}` from its step attribute, else from its name', () => {
    expect(
      toGenAiSpan(traceSpan({ span_id: '1', kind: 'agent.step', attributes: { step: 4 } }), context)
        .name,
    ).toBe('step 4');
    expect(
      toGenAiSpan(traceSpan({ span_id: '1', kind: 'agent.step', name: 'step.7' }), context).name,
    ).toBe('step 7');
  });

  it('subagent.run is `invoke_agent explore` with the child session as conversation id', () => {
    const shape = toGenAiSpan(
      traceSpan({
        span_id: '1',
        kind: 'subagent.run',
        name: 'subagent.explorer',
        attributes: { child_session_key: 'subagent-abc', task_chars: 120 },
      }),
      context,
    );
    expect(shape.name).toBe('invoke_agent explore');
    expect(shape.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'explore',
      'gen_ai.conversation.id': 'subagent-abc',
      'tiny_claw.task_chars': 120,
    });
  });

  it('approval spans keep their kind as name', () => {
    const shape = toGenAiSpan(
      traceSpan({ span_id: '1', kind: 'approval.pause', attributes: { approval_id: 'ap-1' } }),
      context,
    );
    expect(shape.name).toBe('approval.pause');
    expect(shape.kind).toBe(SpanKind.INTERNAL);
    expect(shape.attributes).toMatchObject({ 'tiny_claw.approval_id': 'ap-1' });
    expect(shape.attributes).not.toHaveProperty('gen_ai.operation.name');
  });

  it('replay payloads travel as JSON text; primitive arrays stay arrays; nulls are dropped', () => {
    const shape = toGenAiSpan(
      traceSpan({
        span_id: '1',
        kind: 'tool.call',
        attributes: {
          tool_arguments: { path: 'a.txt', limit: 10 },
          tool_arguments_keys: ['limit', 'path'],
          mixed: [1, 'a'],
          approval_id: null,
        },
      }),
      context,
    );
    expect(shape.attributes).toMatchObject({
      'tiny_claw.tool_arguments': '{"path":"a.txt","limit":10}',
      'tiny_claw.tool_arguments_keys': ['limit', 'path'],
      'tiny_claw.mixed': '[1,"a"]',
    });
    expect(shape.attributes).not.toHaveProperty('tiny_claw.approval_id');
  });
});
