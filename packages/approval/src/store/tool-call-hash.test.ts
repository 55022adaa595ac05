import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCallHash } from './tool-call-hash.js';

describe('toolCallHash', () => {
  it('is the same whatever order the argument keys come in (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), (args, workdir) => {
        const reversed = Object.fromEntries(Object.entries(args).reverse());
        return (
          toolCallHash({ name: 'bash', arguments: args }, workdir) ===
          toolCallHash({ name: 'bash', arguments: reversed }, workdir)
        );
      }),
    );
  });

  it('changes with the tool, any argument, or the workdir', () => {
    const base = toolCallHash({ name: 'bash', arguments: { command: 'ls', timeout: 10 } }, '/repo');
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(
      toolCallHash({ name: 'bash', arguments: { command: 'rm -rf x', timeout: 10 } }, '/repo'),
    ).not.toBe(base);
    expect(
      toolCallHash({ name: 'bash', arguments: { command: 'ls', timeout: 11 } }, '/repo'),
    ).not.toBe(base);
    expect(toolCallHash({ name: 'bash', arguments: { command: 'ls' } }, '/repo')).not.toBe(base);
    expect(
      toolCallHash({ name: 'read', arguments: { command: 'ls', timeout: 10 } }, '/repo'),
    ).not.toBe(base);
    expect(
      toolCallHash({ name: 'bash', arguments: { command: 'ls', timeout: 10 } }, '/other'),
    ).not.toBe(base);
  });

  it('hashes the arguments as parsed: of duplicate JSON keys only the last one counts, for display and execution alike', () => {
    const parsed = JSON.parse('{"command":"ls","command":"rm -rf x"}') as { command: string };
    expect(parsed.command).toBe('rm -rf x');
    expect(toolCallHash({ name: 'bash', arguments: parsed }, '/repo')).toBe(
      toolCallHash({ name: 'bash', arguments: { command: 'rm -rf x' } }, '/repo'),
    );
  });
});
