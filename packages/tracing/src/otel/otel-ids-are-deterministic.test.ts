import { describe, expect, it } from 'vitest';
import { toOtelSpanId, toOtelTraceId } from './index.js';

describe('OTel ids are valid and derived deterministically from ours', () => {
  it('ids that are already valid pass through, so the collector shows the trace file name', () => {
    expect(toOtelTraceId('4bf92f3577b34da6a3ce929d0e0e4736')).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(toOtelTraceId('4BF92F3577B34DA6A3CE929D0E0E4736')).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(toOtelSpanId('00f067aa0ba902b7')).toBe('00f067aa0ba902b7');
  });

  it('a UUID loses its dashes', () => {
    expect(toOtelTraceId('4bf92f35-77b3-4da6-a3ce-929d0e0e4736')).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
  });

  it.each([
    'run-1',
    'root',
    '00000000000000000000000000000000',
    'abc',
    '4bf92f3577b34da6a3ce929d0e0e47360',
  ])('%j is hashed to a valid id, the same every time', (ours) => {
    const traceId = toOtelTraceId(ours);
    const spanId = toOtelSpanId(ours);
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(traceId).not.toMatch(/^0+$/);
    expect(spanId).not.toMatch(/^0+$/);
    expect(toOtelTraceId(ours)).toBe(traceId);
    expect(toOtelSpanId(ours)).toBe(spanId);
  });

  it('different ids stay different', () => {
    expect(toOtelSpanId('span-a')).not.toBe(toOtelSpanId('span-b'));
  });
});
