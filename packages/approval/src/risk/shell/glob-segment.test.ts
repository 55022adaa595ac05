import { describe, expect, it } from 'vitest';
import { globSegmentMatches } from './glob-segment.js';

describe('globSegmentMatches', () => {
  it('matches like bash without dotglob: only a literal dot matches a leading dot', () => {
    expect(globSegmentMatches('*', '.git')).toBe(false);
    expect(globSegmentMatches('[.]git', '.git')).toBe(false);
    expect(globSegmentMatches('.*', '.git')).toBe(true);
    expect(globSegmentMatches('.g[i]?', '.git')).toBe(true);
    expect(globSegmentMatches('*.ts', 'a.ts')).toBe(true);
    expect(globSegmentMatches('[!a]c', 'bc')).toBe(true);
  });
});
