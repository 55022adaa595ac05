import { describe, expect, it } from 'vitest';
import { optionTable, resolveLong } from './option-table.js';

const table = optionTable([
  '-o: --output=',
  '--output-indicator=',
  '-q --quiet --silent',
  '--color[=] --colour[=]',
  '--group[=]',
  '--group-separator=',
  ['--compress-program=', { ask: 'runs a program' }],
]);

describe('optionTable', () => {
  it('reads each spelling with how it takes its value', () => {
    expect(table.short.get('-o')?.argument).toBe('required');
    expect(table.long.get('output')?.argument).toBe('required');
    expect(table.long.get('color')?.argument).toBe('optional');
    expect(table.long.get('quiet')?.argument).toBe('none');
    expect(table.long.get('silent')?.def).toBe(table.long.get('quiet')?.def);
  });

  it('knows whether some option is not harmless', () => {
    expect(table.risky).toBe(true);
    expect(optionTable(['-a --all', '--help']).risky).toBe(false);
  });

  it('refuses a spelling listed twice and text that is not a spelling', () => {
    expect(() => optionTable(['-a --all', '--all'])).toThrow('--all is listed twice');
    expect(() => optionTable(['all'])).toThrow('not an option spelling: all');
  });
});

describe('resolveLong', () => {
  it('takes an exact name over a longer name it starts', () => {
    const resolution = resolveLong(table, 'output', true);
    expect(resolution.kind === 'match' && resolution.match.name).toBe('--output');
  });

  it('takes a prefix of exactly one option as that option', () => {
    const resolution = resolveLong(table, 'comp', true);
    expect(resolution.kind === 'match' && resolution.match.name).toBe('--compress-program');
  });

  it('takes a prefix shared only by spellings of one option as that option', () => {
    const resolution = resolveLong(table, 'col', true);
    expect(resolution.kind === 'match' && resolution.match.def.id).toBe('--color');
  });

  it('calls a prefix of several options ambiguous and names them', () => {
    expect(resolveLong(table, 'out', true)).toEqual({
      kind: 'ambiguous',
      candidates: ['--output', '--output-indicator'],
    });
    expect(resolveLong(table, 'gr', true).kind).toBe('ambiguous');
  });

  it('knows nothing of a name no option starts, nor of an empty name', () => {
    expect(resolveLong(table, 'outpt', true).kind).toBe('unknown');
    expect(resolveLong(table, '', true).kind).toBe('unknown');
  });

  it('takes only exact names from a parser without abbreviations', () => {
    expect(resolveLong(table, 'comp', false).kind).toBe('unknown');
    expect(resolveLong(table, 'quiet', false).kind).toBe('match');
  });
});
