import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compareReports, readCommittedReports } from './api-report-compare.ts';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const CORE = 'packages/core/api-report/index.api.md';
const TESTING = 'packages/core/api-report/testing.api.md';

describe('stale reports', () => {
  it('finds nothing when every report matches', () => {
    expect(
      compareReports([{ path: CORE, label: '@x/core', text: 'a\n' }], new Map([[CORE, 'a\n']])),
    ).toEqual([]);
  });

  it('names a changed, a new and an orphaned report, with a diff only for the changed one', () => {
    const changes = compareReports(
      [
        { path: CORE, label: '@x/core', text: 'a\nb\n' },
        { path: TESTING, label: '@x/core/testing', text: 't\n' },
      ],
      new Map([
        [CORE, 'a\n'],
        ['packages/gone/api-report/index.api.md', 'g\n'],
      ]),
    );
    expect(changes.map(({ path, kind, label }) => ({ path, kind, label }))).toEqual([
      { path: CORE, kind: 'changed', label: '@x/core' },
      { path: TESTING, kind: 'missing', label: '@x/core/testing' },
      {
        path: 'packages/gone/api-report/index.api.md',
        kind: 'orphaned',
        label: 'packages/gone/api-report/index.api.md',
      },
    ]);
    expect(changes[0]?.diff).toEqual(['@@ -1,1 +1,2 @@', ' a', '+b']);
    expect(changes[1]?.text).toBe('t\n');
    expect(changes[2]?.text).toBeUndefined();
  });

  it('reads committed reports with Windows line endings as equal', () => {
    const root = mkdtempSync(join(tmpdir(), 'tc-api-compare-'));
    temps.push(root);
    mkdirSync(join(root, 'packages/core/api-report'), { recursive: true });
    mkdirSync(join(root, 'packages/tools'), { recursive: true });
    writeFileSync(join(root, CORE), 'a\r\nb\r\n');
    writeFileSync(join(root, 'packages/core/api-report/notes.txt'), 'not a report');
    expect(readCommittedReports(root)).toEqual(new Map([[CORE, 'a\nb\n']]));
  });
});
