import {
  type LLMRequest,
  type Message,
  messageSchema,
  msg,
  type ToolDefinition,
} from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { toClaudeRequest } from './request-mapping.js';

const defaults = { model: 'claude-test', maxTokens: 1024 };
const readTool: ToolDefinition = {
  name: 'read',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

function request(
  messages: Message[],
  tools: ToolDefinition[] = [],
  toolChoice: 'auto' | 'none' = 'auto',
): LLMRequest {
  return { messages, tools, toolChoice };
}

describe('toClaudeRequest', () => {
  it('joins every non-empty system message with a blank line into `system`', () => {
    const body = toClaudeRequest(
      request([
        msg.system('core rules'),
        msg.system('  '),
        msg.user('hi'),
        msg.system('skill text'),
      ]),
      defaults,
    );
    expect(body.system).toBe('core rules\n\nskill text');
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  it('omits `system` when no system message has content', () => {
    const body = toClaudeRequest(request([msg.system(''), msg.user('hi')]), defaults);
    expect(body).not.toHaveProperty('system');
  });

  it('sends a tool result read from an older saved state, flag in its metadata, as an error', () => {
    const call = { id: 'toolu_1', name: 'read', arguments: { path: 'a' } };
    const saved = messageSchema.parse({
      role: 'tool',
      content: 'no such file',
      toolCallId: 'toolu_1',
      name: 'read',
      metadata: { is_error: true },
    });
    const body = toClaudeRequest(
      request([msg.user('read'), msg.assistant('', [call]), saved], [readTool]),
      defaults,
    );
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'no such file', is_error: true },
      ],
    });
  });

  it('always sends model and max_tokens, preferring the request`s maxTokens', () => {
    expect(toClaudeRequest(request([msg.user('hi')]), defaults)).toMatchObject({
      model: 'claude-test',
      max_tokens: 1024,
    });
    expect(
      toClaudeRequest({ ...request([msg.user('hi')]), maxTokens: 77 }, defaults).max_tokens,
    ).toBe(77);
  });

  it('puts tool results as tool_result blocks with is_error into one user turn', () => {
    const call1 = { id: 'toolu_1', name: 'read', arguments: { path: 'a' } };
    const call2 = { id: 'toolu_2', name: 'read', arguments: { path: 'b' } };
    const body = toClaudeRequest(
      request(
        [
          msg.user('read both'),
          msg.assistant('', [call1, call2]),
          msg.tool(call1, 'alpha', { isError: false }),
          msg.tool(call2, 'no such file', { isError: true }),
        ],
        [readTool],
      ),
      defaults,
    );
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'read both' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } },
          { type: 'tool_use', id: 'toolu_2', name: 'read', input: { path: 'b' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'alpha', is_error: false },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'no such file', is_error: true },
        ],
      },
    ]);
  });

  it('merges consecutive same-role turns and keeps tool results before text in a user turn', () => {
    const call = { id: 'toolu_1', name: 'read', arguments: {} };
    const body = toClaudeRequest(
      request(
        [
          msg.user('one'),
          msg.user('two'),
          msg.assistant('a', [call]),
          msg.tool(call, 'out'),
          msg.user('next'),
        ],
        [readTool],
      ),
      defaults,
    );
    expect(body.messages.map((turn) => turn.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[0]?.content).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ]);
    expect(body.messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'out', is_error: false },
      { type: 'text', text: 'next' },
    ]);
  });

  it('moves a tool_result ahead of text that preceded it in the same user turn', () => {
    const call = { id: 'toolu_1', name: 'read', arguments: {} };
    const body = toClaudeRequest(
      request(
        [msg.user('go'), msg.assistant('', [call]), msg.user('note'), msg.tool(call, 'out')],
        [readTool],
      ),
      defaults,
    );
    expect(body.messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'out', is_error: false },
      { type: 'text', text: 'note' },
    ]);
  });

  it('never sends an empty text block: an assistant turn with no text and no calls is dropped', () => {
    const body = toClaudeRequest(
      request([
        msg.user('first'),
        msg.assistant(''),
        msg.user('second'),
        msg.assistant('  \n'),
        msg.user('third'),
      ]),
      defaults,
    );
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
          { type: 'text', text: 'third' },
        ],
      },
    ]);
    const blocks = body.messages.flatMap((turn) =>
      Array.isArray(turn.content) ? turn.content : [],
    );
    for (const block of blocks) if (block.type === 'text') expect(block.text.trim()).not.toBe('');
  });

  it('sends an assistant turn with calls but no text as tool_use blocks only', () => {
    const call = { id: 'toolu_9', name: 'read', arguments: { path: 'x' } };
    const body = toClaudeRequest(
      request([msg.user('go'), msg.assistant('', [call]), msg.tool(call, 'ok')], [readTool]),
      defaults,
    );
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_9', name: 'read', input: { path: 'x' } }],
    });
  });

  it('omits the content of an empty tool result instead of sending an empty string', () => {
    const call = { id: 'toolu_1', name: 'read', arguments: {} };
    const body = toClaudeRequest(
      request(
        [msg.user('go'), msg.assistant('', [call]), msg.tool(call, '', { isError: true })],
        [readTool],
      ),
      defaults,
    );
    expect(body.messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', is_error: true },
    ]);
  });

  it('starts with a user turn when the history opens with the assistant', () => {
    const body = toClaudeRequest(
      request([msg.assistant('earlier answer'), msg.user('go on')]),
      defaults,
    );
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: '(continue)' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'earlier answer' }] },
      { role: 'user', content: [{ type: 'text', text: 'go on' }] },
    ]);
  });

  it('sends one placeholder user turn for a history with no user content', () => {
    const body = toClaudeRequest(request([msg.system('rules'), msg.user('')]), defaults);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: '(continue)' }] },
    ]);
  });

  it('sends tools as {name, description, input_schema} and tool_choice only when there are tools', () => {
    const withTools = toClaudeRequest(request([msg.user('hi')], [readTool], 'none'), defaults);
    expect(withTools.tools).toEqual([
      { name: 'read', description: 'Read a file', input_schema: readTool.parameters },
    ]);
    expect(withTools.tool_choice).toEqual({ type: 'none' });
    expect(toClaudeRequest(request([msg.user('hi')], [readTool]), defaults).tool_choice).toEqual({
      type: 'auto',
    });

    const without = toClaudeRequest(request([msg.user('hi')], [], 'none'), defaults);
    expect(without).not.toHaveProperty('tools');
    expect(without).not.toHaveProperty('tool_choice');
  });

  it('gives a schema without `type` the object type the API requires', () => {
    const body = toClaudeRequest(
      request(
        [msg.user('hi')],
        [{ name: 'noop', description: '', parameters: { properties: {} } }],
      ),
      defaults,
    );
    expect(body.tools?.[0]).toMatchObject({ input_schema: { type: 'object', properties: {} } });
  });

  it('writes earlier tool calls and results as text when the request carries no tools', () => {
    const call = { id: 'toolu_1', name: 'read', arguments: { path: 'a' } };
    const body = toClaudeRequest(
      request([
        msg.user('go'),
        msg.assistant('looking', [call]),
        msg.tool(call, 'alpha', { isError: true }),
        msg.user('sum up'),
      ]),
      defaults,
    );
    const blocks = body.messages.flatMap((turn) =>
      Array.isArray(turn.content) ? turn.content : [],
    );
    expect(blocks.every((block) => block.type === 'text')).toBe(true);
    expect(body.messages[1]?.content).toEqual([
      { type: 'text', text: 'looking' },
      { type: 'text', text: '[tool call read (id toolu_1) with arguments {"path":"a"}]' },
    ]);
    expect(body.messages[2]?.content).toEqual([
      { type: 'text', text: '[error result of tool read (id toolu_1)]\nalpha' },
      { type: 'text', text: 'sum up' },
    ]);
  });
});
