import { describe, expect, it } from 'vitest';
import { type Message, msg } from '../messages.js';
import { compactForRequest } from './compactor.js';

function history(toolOutputs: string[]): Message[] {
  const messages: Message[] = [msg.system('rules'), msg.user('task')];
  toolOutputs.forEach((output, i) => {
    const call = { id: `c${i}`, name: 'read', arguments: { path: `f${i}` } };
    messages.push(msg.assistant('', [call]), msg.tool(call, output));
  });
  return messages;
}

describe('compactForRequest', () => {
  it('leaves a conversation under budget untouched (same array)', () => {
    const messages = history(['small']);
    const { messages: out, report } = compactForRequest(messages, {
      maxChars: 1000,
      retainLastMessages: 8,
    });
    expect(out).toBe(messages);
    expect(report.changed).toBe(false);
  });

  it('masks old tool results and trims recent long ones without mutating the stored history', () => {
    const big = `HEAD${'x'.repeat(300_000)}TAIL`;
    const messages = history(['old output', 'older two', big]);
    const snapshot = JSON.stringify(messages);
    const { messages: out, report } = compactForRequest(messages, {
      maxChars: 120_000,
      retainLastMessages: 2,
    });
    expect(JSON.stringify(messages)).toBe(snapshot);
    const tools = out.filter((m) => m.role === 'tool');
    expect(tools[0]?.content).toBe(
      '[Earlier tool output removed to save context. Tool: read. Original length: 10 chars.]',
    );
    expect(tools[2]?.content.startsWith('HEAD')).toBe(true);
    expect(tools[2]?.content.endsWith('TAIL')).toBe(true);
    expect(tools[2]?.content).toContain('original length 300008 chars');
    expect(report).toMatchObject({
      changed: true,
      maskedToolResults: 2,
      truncatedToolResults: 1,
      overBudget: false,
    });
    expect(report.compactedChars).toBeLessThan(10_000);
  });

  it('never changes system, user or assistant messages', () => {
    const messages = [
      msg.system('s'.repeat(5000)),
      msg.user('u'.repeat(5000)),
      msg.assistant('a'.repeat(5000)),
    ];
    const { messages: out, report } = compactForRequest(messages, {
      maxChars: 100,
      retainLastMessages: 1,
    });
    expect(out).toBe(messages);
    expect(report.overBudget).toBe(true);
  });

  it('compacts harder at the aggressive level, even under the normal budget', () => {
    const messages = history(['a'.repeat(5000), 'b'.repeat(5000), 'c'.repeat(5000)]);
    const { report } = compactForRequest(
      messages,
      { maxChars: 120_000, retainLastMessages: 8 },
      'aggressive',
    );
    expect(report.level).toBe('aggressive');
    expect(report.maskedToolResults).toBeGreaterThan(0);
    expect(report.compactedChars).toBeLessThan(report.originalChars);
  });
});
