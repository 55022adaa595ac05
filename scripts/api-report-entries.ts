/**
 * Which public entry points the API reports cover, read from each published package's `exports` map,
 * and where each entry's report lives. Pure apart from reading the manifests, so it is tested without
 * running API Extractor.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** One public entry point of one published package. */
export interface ApiEntry {
  /** The package name, e.g. `@tiny-claw/core`. */
  packageName: string;
  /** The package folder, relative to the repository root, with `/` separators: `packages/core`. */
  packageDir: string;
  /** The subpath a consumer imports: `.`, `./testing`. */
  subpath: string;
  /** The import specifier a consumer writes: `@tiny-claw/core`, `@tiny-claw/core/testing`. */
  importPath: string;
  /** The built declaration file the report is made from, relative to the package folder: `dist/index.d.ts`. */
  typesPath: string;
  /** The report's base name: `index` for `.`, `testing` for `./testing`. */
  reportName: string;
}

/** The parts of a package.json the discovery reads; everything else in the file is ignored. */
export const packageManifestSchema = z.object({
  name: z.string().optional(),
  private: z.boolean().optional(),
  exports: z.unknown().optional(),
  types: z.string().optional(),
  typings: z.string().optional(),
});

/** A package.json as far as the discovery reads it. */
export type PackageManifest = z.infer<typeof packageManifestSchema>;

/** A manifest the reports cannot be made from; the message says which file and what to change. */
export class ApiEntryError extends Error {
  override name = 'ApiEntryError';
}

/** The folder, inside each package, that holds its reports. */
export const REPORT_DIR = 'api-report';
/** The extension every report file carries. */
export const REPORT_EXTENSION = '.api.md';

// The conditions a consumer's TypeScript matches when it imports the package from ESM under NodeNext
// resolution. The workspace's own source condition is deliberately absent: reports describe what users
// get, the built declarations, not the sources the repository's tests run against.
const CONSUMER_CONDITIONS = new Set(['types', 'import', 'node', 'default']);

/**
 * The report's base name for an export subpath: `.` is `index`, `./testing` is `testing`, and a nested
 * subpath joins its segments with `-` (`./otel/grpc` → `otel-grpc`).
 *
 * @example
 * reportNameFor('./otel'); // 'otel'
 */
export function reportNameFor(subpath: string): string {
  if (subpath === '.') return 'index';
  return subpath.replace(/^\.\//, '').split('/').filter(Boolean).join('-');
}

/**
 * Where an entry's report is committed, relative to the repository root.
 *
 * @example
 * reportPathOf({ packageDir: 'packages/core', reportName: 'testing' }); // 'packages/core/api-report/testing.api.md'
 */
export function reportPathOf(entry: Pick<ApiEntry, 'packageDir' | 'reportName'>): string {
  return `${entry.packageDir}/${REPORT_DIR}/${entry.reportName}${REPORT_EXTENSION}`;
}

type Target = { kind: 'types'; path: string } | { kind: 'none' } | { kind: 'source'; path: string };

// Declaration files sit beside the JavaScript they describe; this is how TypeScript finds them too.
const DECLARATION_FOR: ReadonlyArray<readonly [RegExp, string]> = [
  [/\.d\.[cm]?ts$/, ''],
  [/\.js$/, '.d.ts'],
  [/\.mjs$/, '.d.mts'],
  [/\.cjs$/, '.d.cts'],
];

function targetOf(value: unknown): Target {
  if (typeof value === 'string') {
    const path = value.replace(/^\.\//, '');
    for (const [pattern, replacement] of DECLARATION_FOR) {
      if (pattern.test(path)) {
        return { kind: 'types', path: replacement ? path.replace(pattern, replacement) : path };
      }
    }
    if (/\.[cm]?tsx?$/.test(path)) return { kind: 'source', path };
    return { kind: 'none' }; // JSON, CSS and other files have no TypeScript surface.
  }
  if (Array.isArray(value)) {
    for (const fallback of value) {
      const target = targetOf(fallback);
      if (target.kind !== 'none') return target;
    }
    return { kind: 'none' };
  }
  if (value && typeof value === 'object') {
    for (const [condition, nested] of Object.entries(value)) {
      if (CONSUMER_CONDITIONS.has(condition)) return targetOf(nested);
    }
  }
  return { kind: 'none' };
}

/** The `exports` field as a map from subpath to target, whichever shorthand the manifest uses. */
function subpathMap(exportsField: unknown, where: string): Record<string, unknown> {
  if (typeof exportsField === 'string' || Array.isArray(exportsField)) return { '.': exportsField };
  if (!exportsField || typeof exportsField !== 'object') {
    throw new ApiEntryError(`${where}: "exports" must be a string or an object.`);
  }
  const keys = Object.keys(exportsField);
  const subpaths = keys.filter((key) => key.startsWith('.'));
  if (subpaths.length === 0) return { '.': exportsField };
  if (subpaths.length !== keys.length) {
    throw new ApiEntryError(
      `${where}: "exports" mixes subpaths ("./…") with conditions; Node.js rejects that. Use only subpaths.`,
    );
  }
  return exportsField as Record<string, unknown>;
}

/**
 * Every public entry point a manifest declares, in the order it declares them. `./package.json` and
 * subpaths without a TypeScript surface (JSON files, `null`) are skipped; a manifest with no `exports`
 * falls back to its `types` field.
 *
 * @throws {ApiEntryError} for a subpath pattern (`./*`), a subpath whose consumer target is TypeScript
 *   source rather than built output, two subpaths that would share a report file, or no entry at all.
 *
 * @example
 * entriesFromManifest({ name: '@tiny-claw/tracing', exports: { '.': { types: './dist/index.d.ts' },
 *   './otel': { types: './dist/otel/index.d.ts' } } }, 'packages/tracing');
 * // → entries `index` (dist/index.d.ts) and `otel` (dist/otel/index.d.ts)
 */
export function entriesFromManifest(manifest: PackageManifest, packageDir: string): ApiEntry[] {
  const where = `${packageDir}/package.json`;
  const packageName = manifest.name;
  if (!packageName) throw new ApiEntryError(`${where}: has no "name".`);

  let map: Record<string, unknown>;
  if (manifest.exports !== undefined) map = subpathMap(manifest.exports, where);
  else if (manifest.types ?? manifest.typings) map = { '.': manifest.types ?? manifest.typings };
  else {
    throw new ApiEntryError(
      `${where}: declares neither "exports" nor "types", so it has no entry point to report.`,
    );
  }

  const entries: ApiEntry[] = [];
  const subpathByReport = new Map<string, string>();
  for (const [subpath, value] of Object.entries(map)) {
    if (subpath === './package.json') continue;
    if (subpath.includes('*')) {
      throw new ApiEntryError(
        `${where}: export "${subpath}" is a pattern; list each entry point as its own subpath so its API report can be checked.`,
      );
    }
    const target = targetOf(value);
    if (target.kind === 'none') continue;
    if (target.kind === 'source') {
      throw new ApiEntryError(
        `${where}: export "${subpath}" resolves to the source file "${target.path}" for consumers; add a "types" condition pointing at the built .d.ts.`,
      );
    }
    const reportName = reportNameFor(subpath);
    const clash = subpathByReport.get(reportName);
    if (clash !== undefined) {
      throw new ApiEntryError(
        `${where}: exports "${clash}" and "${subpath}" would both be reported as ${reportName}${REPORT_EXTENSION}; rename one of them.`,
      );
    }
    subpathByReport.set(reportName, subpath);
    entries.push({
      packageName,
      packageDir,
      subpath,
      importPath: subpath === '.' ? packageName : `${packageName}/${subpath.slice(2)}`,
      typesPath: target.path,
      reportName,
    });
  }
  if (entries.length === 0) {
    throw new ApiEntryError(`${where}: "exports" declares no TypeScript entry point to report.`);
  }
  return entries;
}

/**
 * Every entry point of every published (not `private`) package under `packages/`, sorted by package
 * folder; apps are private and never published, so they are not looked at.
 *
 * @example
 * discoverEntries(process.cwd()).map((entry) => entry.importPath);
 * // ['@tiny-claw/approval', '@tiny-claw/core', '@tiny-claw/core/testing', …]
 */
export function discoverEntries(root: string): ApiEntry[] {
  const entries: ApiEntry[] = [];
  for (const folder of readdirSync(join(root, 'packages')).sort()) {
    let text: string;
    try {
      text = readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8');
    } catch {
      continue; // not a package: a stray file or an empty folder
    }
    const packageDir = `packages/${folder}`;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ApiEntryError(`${packageDir}/package.json: is not valid JSON (${String(error)}).`);
    }
    const parsed = packageManifestSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiEntryError(
        `${packageDir}/package.json: "${issue?.path.join('.')}" ${issue?.message ?? 'is invalid'}.`,
      );
    }
    const manifest = parsed.data;
    if (manifest.private === true) continue;
    entries.push(...entriesFromManifest(manifest, packageDir));
  }
  return entries;
}
