import { describe, expect, it } from 'vitest';
import { MESSAGE_CHUNK_CHARS, splitMessage } from './split-message.js';

const fences = (chunk: string) =>
  chunk.split('\n').filter((line) => /^\s{0,3}(```|~~~)/.test(line));

/** Each chunk must open and close its code blocks: an even number of fence lines. */
function expectBalanced(chunks: string[], limit: number) {
  for (const chunk of chunks) {
    expect(chunk.length).toBeLessThanOrEqual(limit);
    expect(fences(chunk).length % 2).toBe(0);
  }
}

describe('splitting long answers for chat', () => {
  it('sends a short answer as it is', () => {
    expect(splitMessage('hello\n```js\nx\n```')).toEqual(['hello\n```js\nx\n```']);
  });

  it('splits at line ends into chunks of at most 3500 characters', () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
    const chunks = splitMessage(text);
    expect(chunks.length).toBeGreaterThan(1);
    expectBalanced(chunks, MESSAGE_CHUNK_CHARS);
    expect(chunks.join('\n')).toBe(text);
  });

  it('never breaks a code block: each chunk closes it and the next reopens it with its language', () => {
    const code = Array.from({ length: 400 }, (_, i) => `const v${i} = ${i};`).join('\n');
    const text = `Here is the file:\n\`\`\`ts\n${code}\n\`\`\`\nDone.`;
    const chunks = splitMessage(text, 1000);
    expect(chunks.length).toBeGreaterThan(3);
    expectBalanced(chunks, 1000);
    for (const chunk of chunks.slice(1, -1)) expect(chunk.startsWith('```ts\n')).toBe(true);
    // Removing the added fences gives back the original lines, in order.
    const body = chunks
      .map((chunk, i) => {
        let lines = chunk.split('\n');
        if (i > 0) lines = lines.slice(1);
        if (i < chunks.length - 1) lines = lines.slice(0, -1);
        return lines.join('\n');
      })
      .join('\n');
    expect(body).toBe(text);
  });

  it('keeps a tilde block and an inner backtick fence apart', () => {
    const text = `~~~md\n${'```js\ncode\n```\n'.repeat(60)}~~~\nafter`;
    const chunks = splitMessage(text, 300);
    for (const chunk of chunks) {
      const lines = chunk.split('\n');
      expect(lines[lines.length - 1] === '~~~' || chunk.endsWith('after')).toBe(true);
      expect(chunk.length).toBeLessThanOrEqual(300);
    }
  });

  it('cuts a single line longer than a chunk', () => {
    const text = 'y'.repeat(10_000);
    const chunks = splitMessage(text, 1000);
    expectBalanced(chunks, 1000);
    expect(chunks.join('')).toBe(text);
  });
});
