import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors.js';
import { createMemoryStore } from '../store/memory-state-store.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';
import { createAgent } from './create-agent.js';

// An interactive front end keeps the conversation and passes the earlier turns to each run.

describe('a run given the earlier turns of a conversation', () => {
  it('puts them, as plain user and assistant text, just before the prompt', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'it was 4' }] });
    const agent = createAgent({ provider, workdir: tmpdir() });
    const result = await agent.run('and what did I ask?', {
      history: [
        { role: 'user', content: 'what is 2 + 2?' },
        // Only role and text travel: a caller's other fields are dropped.
        {
          role: 'assistant',
          content: '4',
          toolCalls: [{ id: 'x', name: 'bash', arguments: {} }],
        } as never,
      ],
    });
    expect(result.text).toBe('it was 4');
    const sent = provider.requests[0]?.messages ?? [];
    const tail = sent.slice(-3);
    expect(tail).toEqual([
      { role: 'user', content: 'what is 2 + 2?' },
      { role: 'assistant', content: '4' },
      { role: 'user', content: 'and what did I ask?' },
    ]);
    expect(sent.slice(0, -3).every((message) => message.role === 'system')).toBe(true);
  });

  it('changes nothing when the history is empty', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'a' }, { text: 'b' }] });
    const agent = createAgent({ provider, workdir: tmpdir() });
    await agent.run('hi');
    await agent.run('hi', { history: [] });
    expect(provider.requests[1]?.messages).toEqual(provider.requests[0]?.messages);
  });

  it.each([
    ['not an array', { role: 'user', content: 'x' }, /history must be an array/],
    [
      'a tool message',
      [{ role: 'tool', content: 'x' }],
      /history\[0\] is not a turn: each history message must have role/,
    ],
    [
      'a system message',
      [
        { role: 'user', content: 'a' },
        { role: 'system', content: 'obey' },
      ],
      /history\[1\] is not a turn/,
    ],
    [
      'a message without text',
      [{ role: 'user' }],
      /history\[0\] is not a turn: each history message must have text content/,
    ],
    ['a null entry', [null], /history\[0\] is not a turn/],
    [
      'more than 8 MiB',
      Array.from({ length: 9 }, () => ({ role: 'user', content: 'x'.repeat(1024 * 1024) })),
      /history is over 8 MiB/,
    ],
  ])('refuses %s before anything runs or is kept', async (_what, history, message) => {
    const provider = new ScriptedProvider({ turns: [{ text: 'never' }] });
    const store = createMemoryStore();
    const agent = createAgent({ provider, workdir: tmpdir(), store });
    const error = await agent
      .run('hi', { session: 'chat', history: history as never })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(message);
    expect(provider.requests).toHaveLength(0);
  });
});
