import { describe, expect, it } from 'vitest';
import { type Message, msg, type ToolDefinition } from '../messages.js';
import { contentTokens, messageTokens, requestTokens, TokenCalibration } from './token-budget.js';
import { estimateTokens } from './token-estimate.js';

describe('messageTokens', () => {
  it('counts the content and the tool calls of a message', () => {
    const call = { id: 'c1', name: 'lookup', arguments: { query: 'token budget', limit: 20 } };
    const plain = messageTokens(msg.assistant('checking'));
    const withCall = messageTokens(msg.assistant('checking', [call]));
    expect(plain).toBe(estimateTokens('checking'));
    expect(withCall).toBeGreaterThan(plain + 5);
  });

  it('estimates a message again when its content changed since it was counted', () => {
    const message: Message = msg.user('short');
    const before = messageTokens(message);
    message.content = '上下文压缩只在发送请求的那一刻进行。'.repeat(20);
    expect(messageTokens(message)).toBeGreaterThan(before * 20);
  });
});

describe('requestTokens', () => {
  it('adds the framing of each message and the offered tools to the messages', () => {
    const messages = [msg.system('rules'), msg.user('hello')];
    const tool: ToolDefinition = {
      name: 'lookup',
      description: 'Find a page by its title and return its first paragraph.',
      parameters: { type: 'object', properties: { title: { type: 'string' } } },
    };
    const bare = requestTokens(messages, []);
    expect(bare).toBeGreaterThan(messageTokens(messages[0] as Message));
    expect(requestTokens(messages, [tool])).toBeGreaterThan(bare + 15);
  });
});

describe('TokenCalibration', () => {
  it('starts at 1, takes the first reported ratio, then moves halfway to each new one', () => {
    const calibration = new TokenCalibration();
    expect(calibration.scale).toBe(1);
    calibration.observe(10_000, 13_000);
    expect(calibration.scale).toBeCloseTo(1.3);
    calibration.observe(10_000, 11_000);
    expect(calibration.scale).toBeCloseTo(1.2);
  });

  it('trusts a reported count only within ×0.5 to ×2', () => {
    const calibration = new TokenCalibration();
    calibration.observe(10_000, 90_000);
    expect(calibration.scale).toBe(2);
    const low = new TokenCalibration();
    low.observe(10_000, 10);
    expect(low.scale).toBe(0.5);
  });

  it('learns nothing from a small request or a count that is no count', () => {
    const calibration = new TokenCalibration();
    calibration.observe(300, 900);
    calibration.observe(10_000, 0);
    calibration.observe(10_000, Number.NaN);
    calibration.observe(Number.NaN, 10_000);
    expect(calibration.scale).toBe(1);
  });
});

describe('contentTokens', () => {
  it('estimates a long text from samples, close to estimating all of it', () => {
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `${i}: const value${i} = compute(input, ${i % 97}); // 第${i}行`,
    );
    const text = lines.join('\n');
    expect(text.length).toBeGreaterThan(100_000);
    const whole = estimateTokens(text);
    expect(Math.abs(contentTokens(text) / whole - 1)).toBeLessThan(0.06);
    expect(contentTokens('short text')).toBe(estimateTokens('short text'));
  });
});
