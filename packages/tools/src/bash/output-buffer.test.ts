import { describe, expect, it } from 'vitest';
import { OutputBuffer } from './output-buffer.js';

function push(buffer: OutputBuffer, text: string): void {
  buffer.push(Buffer.from(text));
}

describe('OutputBuffer', () => {
  it('keeps a stream that fits completely, in one piece', () => {
    const buffer = new OutputBuffer(16);
    push(buffer, 'hello ');
    push(buffer, 'world');
    const snap = buffer.snapshot();
    expect(snap.head.toString()).toBe('hello world');
    expect(snap.tail.length).toBe(0);
    expect(snap.omittedBytes).toBe(0);
    expect(snap.totalBytes).toBe(11);
    expect(buffer.truncated).toBe(false);
  });

  it('keeps exactly the limit without omitting anything when the stream equals it', () => {
    const buffer = new OutputBuffer(8);
    push(buffer, '0123');
    push(buffer, '4567');
    const snap = buffer.snapshot();
    expect(snap.head.toString()).toBe('01234567');
    expect(snap.omittedBytes).toBe(0);
  });

  it('keeps the first half and the last half and counts the bytes dropped between', () => {
    const buffer = new OutputBuffer(8);
    push(buffer, '0123456789abcdef');
    const snap = buffer.snapshot();
    expect(snap.head.toString()).toBe('0123');
    expect(snap.tail.toString()).toBe('cdef');
    expect(snap.omittedBytes).toBe(8);
    expect(snap.totalBytes).toBe(16);
    expect(buffer.truncated).toBe(true);
  });

  it('keeps the most recent bytes when many small chunks wrap the ring', () => {
    const buffer = new OutputBuffer(6);
    for (const ch of 'abcdefghijklmnopqrstuvwxyz') push(buffer, ch);
    const snap = buffer.snapshot();
    expect(snap.head.toString()).toBe('abc');
    expect(snap.tail.toString()).toBe('xyz');
    expect(snap.omittedBytes).toBe(20);
  });

  it('keeps memory bounded: a 100 MB stream retains only the limit', () => {
    const buffer = new OutputBuffer(1024);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let i = 0; i < 1600; i += 1) buffer.push(chunk);
    const snap = buffer.snapshot();
    expect(snap.head.length + snap.tail.length).toBe(1024);
    expect(snap.totalBytes).toBe(1600 * 64 * 1024);
    expect(snap.omittedBytes).toBe(snap.totalBytes - 1024);
  });

  it('copies input chunks, so a caller reusing its buffer does not change what was kept', () => {
    const buffer = new OutputBuffer(8);
    const chunk = Buffer.from('abcdefghij');
    buffer.push(chunk);
    chunk.fill(0x7a);
    const snap = buffer.snapshot();
    expect(snap.head.toString() + snap.tail.toString()).toBe('abcdghij');
  });

  it('rejects a limit that cannot hold a head and a tail', () => {
    expect(() => new OutputBuffer(1)).toThrow(RangeError);
    expect(() => new OutputBuffer(2.5)).toThrow(RangeError);
  });
});
