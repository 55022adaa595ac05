import { describe, expect, it } from 'vitest';
import { coreSystemPrompt } from '../context/strings.js';
import { ConfigurationError, createAgent } from '../index.js';
import { ScriptedProvider } from '../testing/index.js';

const firstRequest = async (options: { systemPrompt?: string; instructions?: string }) => {
  const provider = new ScriptedProvider({ turns: [{ text: 'ok' }] });
  await createAgent({ provider, ...options }).run('hi');
  return provider.requests[0]?.messages ?? [];
};

describe('systemPrompt replaces the built-in system prompt', () => {
  it('sends the given systemPrompt, exactly, as the first system message', async () => {
    const messages = await firstRequest({
      systemPrompt: 'You are Nimbus, a release-notes writer.',
    });
    expect(messages[0]).toEqual({
      role: 'system',
      content: 'You are Nimbus, a release-notes writer.',
    });
    expect(messages.some((m) => m.content.includes('You are Tiny Claw'))).toBe(false);
  });

  it('sends the built-in system prompt without it', async () => {
    const messages = await firstRequest({});
    expect(messages[0]).toEqual({ role: 'system', content: coreSystemPrompt });
    expect(coreSystemPrompt.startsWith('You are Tiny Claw, a coding agent')).toBe(true);
  });

  it('keeps instructions appended after it, and the prompt last', async () => {
    const messages = await firstRequest({
      systemPrompt: 'You are Nimbus.',
      instructions: 'Answer in French.',
    });
    expect(messages).toEqual([
      { role: 'system', content: 'You are Nimbus.' },
      { role: 'system', content: 'Answer in French.' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it.each([
    ['an empty string', ''],
    ['only whitespace', ' \n '],
    ['a number', 42],
    ['null', null],
    ['an array', ['You are Nimbus.']],
  ])('refuses %s with a ConfigurationError', (_case, systemPrompt) => {
    const attempt = () =>
      createAgent({
        provider: new ScriptedProvider({ turns: [] }),
        systemPrompt: systemPrompt as never,
      });
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(/systemPrompt must be a non-empty string/);
  });
});
