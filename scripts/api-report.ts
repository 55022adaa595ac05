/**
 * API reports: one `packages/<pkg>/api-report/<entry>.api.md` per public entry point of every published
 * package, made by API Extractor from the built declarations, so a change to a public surface shows up
 * in review as a diff of that file.
 *
 *   tsx scripts/api-report.ts update   rewrite the reports (`pnpm api:update`)
 *   tsx scripts/api-report.ts check    fail if a report is stale (`pnpm api:check`, part of `pnpm test`)
 *
 * Both read `dist/`. `pnpm api:update` rebuilds all declarations from scratch first (`tsc -b
 * --force`), because an incremental build can order the members of an inferred union type
 * differently; a fresh build (as in CI) gives the same text every time.
 */
import { mkdirSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareReports, type ReportChange, readCommittedReports } from './api-report-compare.ts';
import { discoverEntries, reportPathOf } from './api-report-entries.ts';
import { type ExtractedReport, extractReports } from './api-report-extract.ts';

const USAGE = 'Usage: tsx scripts/api-report.ts check|update';
// api:update first rebuilds every declaration from scratch: an incremental build may order the
// members of an inferred union differently, and a report must not depend on build history.
const UPDATE_COMMAND = 'pnpm api:update';

const KIND_NOTE: Record<ReportChange['kind'], string> = {
  changed: 'the public surface changed',
  missing: 'a new entry point, no report committed yet',
  orphaned: 'no published entry point has this report any more',
};

function describeChange(change: ReportChange): string {
  const name = change.kind === 'orphaned' ? change.path : `${change.label} (${change.path})`;
  return `  ${name}: ${KIND_NOTE[change.kind]}`;
}

function applyChanges(root: string, changes: readonly ReportChange[]): void {
  for (const change of changes) {
    const file = join(root, change.path);
    if (change.text === undefined) {
      rmSync(file, { force: true });
      // An api-report folder left empty would only confuse; a folder with other files stays.
      if (readdirSync(dirname(file)).length === 0) rmdirSync(dirname(file));
    } else {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, change.text);
    }
  }
}

/** Runs the check or the update for the repository at `root` and returns the process exit code. */
function runApiReport(
  mode: 'check' | 'update',
  root: string,
  log: (line: string) => void,
  fail: (line: string) => void,
): number {
  let reports: ExtractedReport[];
  try {
    reports = extractReports(root, discoverEntries(root));
  } catch (error) {
    // A broken manifest, a missing build or a declaration TypeScript cannot read: each message says
    // which file and what to do, and a stack trace would only bury it.
    fail(`api-report: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }

  for (const { entry, warnings } of reports) {
    for (const warning of warnings) log(`api-report: warning in ${entry.importPath}: ${warning}`);
  }
  const broken = reports.filter((report) => report.errors.length > 0);
  if (broken.length > 0) {
    for (const { entry, errors } of broken) {
      for (const error of errors) fail(`api-report: error in ${entry.importPath}: ${error}`);
    }
    fail(
      'api-report: API Extractor could not analyse the declarations above; no report was written.',
    );
    return 1;
  }

  const changes = compareReports(
    reports.map(({ entry, text }) => ({
      path: reportPathOf(entry),
      label: entry.importPath,
      text,
    })),
    readCommittedReports(root),
  );
  const packages = new Set(reports.map((report) => report.entry.packageName)).size;
  const scope = `${reports.length} entry points of ${packages} published packages`;

  if (mode === 'update') {
    applyChanges(root, changes);
    for (const change of changes) {
      log(`${change.kind === 'orphaned' ? 'deleted' : 'wrote'} ${change.path}`);
    }
    log(`API reports updated: ${changes.length} file(s) changed, ${scope}.`);
    return 0;
  }

  if (changes.length === 0) {
    log(`API reports are up to date (${scope}).`);
    return 0;
  }
  fail('API reports are out of date; the public surface of these entry points changed:');
  for (const change of changes) fail(describeChange(change));
  // A new or orphaned report has no diff: it is a whole file, and the list above already names it.
  for (const change of changes.filter((candidate) => candidate.diff.length > 0)) {
    fail('');
    fail(`--- ${change.path}`);
    for (const line of change.diff) fail(line);
  }
  fail('');
  fail(
    `If the change is intended, run \`${UPDATE_COMMAND}\` and commit the updated api-report files with it.`,
  );
  return 1;
}

const mode = process.argv[2];
if ((mode !== 'check' && mode !== 'update') || process.argv.length > 3) {
  console.error(USAGE);
  process.exitCode = 2;
} else {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  process.exitCode = runApiReport(mode, root, console.log, console.error);
}
