import { describe, expect, it } from 'vitest';
import { ContextBuilder, MEMORY_MAX_CHARS, renderMemory } from './context-builder.js';

describe('ContextBuilder', () => {
  it('puts the core rules first, then memory, then the trimmed prompt', () => {
    const messages = new ContextBuilder().build({
      prompt: '  fix it  ',
      memories: ['last_prompt: a'],
      workdir: '/w',
    });
    expect(messages.map((m) => m.role)).toEqual(['system', 'system', 'user']);
    expect(messages[0]?.content).toContain('You are Tiny Claw');
    expect(messages[1]?.content).toBe('Recent memory:\nlast_prompt: a');
    expect(messages[2]?.content).toBe('fix it');
  });

  it('sends no memory message when there is none', () => {
    const messages = new ContextBuilder().build({ prompt: 'x', memories: [], workdir: '/w' });
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
  });
});

describe('renderMemory', () => {
  it('caps memory at 4,000 characters keeping the newest lines', () => {
    const lines = Array.from({ length: 5 }, (_, i) => `last_response: ${String(i).repeat(1500)}`);
    const text = renderMemory(lines) ?? '';
    expect(text.length).toBeLessThanOrEqual(MEMORY_MAX_CHARS);
    expect(text).toContain('[Older memory omitted by Tiny Claw.]');
    expect(text).toContain('4444');
    expect(text).not.toContain('0000');
  });

  it('keeps part of a single huge newest line rather than nothing', () => {
    const text = renderMemory([`last_response: ${'x'.repeat(10_000)}`]) ?? '';
    expect(text.length).toBeLessThanOrEqual(MEMORY_MAX_CHARS);
    expect(text).toContain('last_response: xxx');
  });
});
