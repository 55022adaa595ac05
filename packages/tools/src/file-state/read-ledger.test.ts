import { describe, expect, it } from 'vitest';
import { fingerprintOf, sameFingerprint } from './fingerprint.js';
import { ReadLedger } from './read-ledger.js';

const state = (content: string, mtimeMs = 1000) =>
  fingerprintOf(Buffer.from(content), { mtimeMs, size: Buffer.byteLength(content) });

describe('read ledger', () => {
  it('reports not_read for a file the run never read', () => {
    const ledger = new ReadLedger();
    ledger.recordRead('run-1', '/w/a.ts', state('a'));
    expect(ledger.check('run-2', '/w/a.ts', state('a'))).toBe('not_read');
    expect(ledger.check('run-1', '/w/b.ts', state('a'))).toBe('not_read');
  });

  it('reports ok for an unchanged file and modified when mtime, size or content differ', () => {
    const ledger = new ReadLedger();
    ledger.recordRead('run-1', '/w/a.ts', state('abc'));
    expect(ledger.check('run-1', '/w/a.ts', state('abc'))).toBe('ok');
    expect(ledger.check('run-1', '/w/a.ts', state('abc', 2000))).toBe('modified');
    expect(ledger.check('run-1', '/w/a.ts', state('abcd'))).toBe('modified');
    expect(ledger.check('run-1', '/w/a.ts', state('abd'))).toBe('modified');
  });

  it('replaces the recorded state on a new read or write', () => {
    const ledger = new ReadLedger();
    ledger.recordRead('run-1', '/w/a.ts', state('old'));
    ledger.recordRead('run-1', '/w/a.ts', state('new', 5));
    expect(ledger.check('run-1', '/w/a.ts', state('new', 5))).toBe('ok');
    expect(ledger.lastRead('run-1', '/w/a.ts')?.size).toBe(3);
  });

  it('forgets a finished run and the least recently used run beyond maxRuns', () => {
    const ledger = new ReadLedger({ maxRuns: 2 });
    ledger.recordRead('r1', '/w/a', state('a'));
    ledger.recordRead('r2', '/w/a', state('a'));
    ledger.recordRead('r1', '/w/b', state('b')); // r1 is now the most recent
    ledger.recordRead('r3', '/w/a', state('a'));
    expect(ledger.check('r2', '/w/a', state('a'))).toBe('not_read');
    expect(ledger.check('r1', '/w/a', state('a'))).toBe('ok');
    ledger.forgetRun('r1');
    expect(ledger.check('r1', '/w/a', state('a'))).toBe('not_read');
  });

  it('hashes content so equal stats with different bytes differ', () => {
    const a = fingerprintOf(Buffer.from('abc'), { mtimeMs: 1, size: 3 });
    const b = fingerprintOf(Buffer.from('abd'), { mtimeMs: 1, size: 3 });
    expect(sameFingerprint(a, b)).toBe(false);
    expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
