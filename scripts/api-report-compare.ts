/**
 * Which committed report files differ from the reports just made: changed, missing (a new entry point)
 * or orphaned (the entry point, or the package's publication, is gone).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shortDiff } from './api-report-diff.ts';
import { REPORT_DIR, REPORT_EXTENSION } from './api-report-entries.ts';

/** A report as just made, to be compared with the committed file at `path`. */
export interface FreshReport {
  /** Where it is committed, relative to the repository root: `packages/core/api-report/index.api.md`. */
  path: string;
  /** What a reader calls it: the import path, `@tiny-claw/core/testing`. */
  label: string;
  text: string;
}

/** One report file that does not match the public surface. */
export interface ReportChange {
  path: string;
  /** The import path, or the file path for an orphaned report. */
  label: string;
  kind: 'changed' | 'missing' | 'orphaned';
  /** The text that belongs in the file; absent for an orphaned report, which should be deleted. */
  text?: string;
  /** For a changed report, a short unified diff from the committed text to the fresh one; else empty. */
  diff: string[];
}

/**
 * Every `*.api.md` under `packages/<pkg>/api-report/`, keyed by its path relative to `root`, with
 * line endings normalised so a checkout that converts them still compares equal.
 *
 * @example
 * readCommittedReports(process.cwd()).get('packages/core/api-report/index.api.md');
 */
export function readCommittedReports(root: string): Map<string, string> {
  const reports = new Map<string, string>();
  for (const folder of readdirSync(join(root, 'packages')).sort()) {
    let files: string[];
    try {
      files = readdirSync(join(root, 'packages', folder, REPORT_DIR));
    } catch {
      continue; // no reports in this package (yet)
    }
    for (const file of files.sort()) {
      if (!file.endsWith(REPORT_EXTENSION)) continue;
      const path = `packages/${folder}/${REPORT_DIR}/${file}`;
      reports.set(path, readFileSync(join(root, path), 'utf8').replace(/\r\n?/g, '\n'));
    }
  }
  return reports;
}

/**
 * The committed reports that differ from the fresh ones, in the order of `fresh`, then the orphans
 * sorted by path. Empty when every report is up to date.
 *
 * @example
 * compareReports([{ path: 'packages/a/api-report/index.api.md', label: '@x/a', text: 'new\n' }],
 *   new Map([['packages/a/api-report/index.api.md', 'old\n']]));
 * // [{ kind: 'changed', path: 'packages/a/api-report/index.api.md', label: '@x/a', text: 'new\n', diff: [...] }]
 */
export function compareReports(
  fresh: readonly FreshReport[],
  committed: ReadonlyMap<string, string>,
): ReportChange[] {
  const changes: ReportChange[] = [];
  const expected = new Set<string>();
  for (const report of fresh) {
    expected.add(report.path);
    const before = committed.get(report.path);
    if (before === report.text) continue;
    changes.push({
      path: report.path,
      label: report.label,
      kind: before === undefined ? 'missing' : 'changed',
      text: report.text,
      diff: before === undefined ? [] : shortDiff(before, report.text),
    });
  }
  for (const path of [...committed.keys()].sort()) {
    if (expected.has(path)) continue;
    changes.push({ path, label: path, kind: 'orphaned', diff: [] });
  }
  return changes;
}
