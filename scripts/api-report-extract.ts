/**
 * Runs API Extractor over the built declarations of each entry point and returns the report text.
 * The configuration is built in memory, so packages carry no config files of their own; reports are
 * written to a scratch folder and read back, and the caller decides whether to save or compare them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  CompilerState,
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type ExtractorMessage,
  type IConfigFile,
} from '@microsoft/api-extractor';
import type { ApiEntry } from './api-report-entries.ts';
import { tidyReport } from './api-report-tidy.ts';

/** One entry's report, plus whatever API Extractor had to say that a maintainer should read. */
export interface ExtractedReport {
  entry: ApiEntry;
  /** The report's committed text (see `tidyReport`). */
  text: string;
  /** Errors: the report cannot be trusted until they are fixed. */
  errors: string[];
  /** Warnings: worth a look, but they do not fail the check. */
  warnings: string[];
}

/** A declaration file is missing: the packages have not been built. */
export class MissingBuildError extends Error {
  override name = 'MissingBuildError';
}

const OFF = { logLevel: ExtractorLogLevel.None, addToApiReportFile: false };

/**
 * The options the declarations are analysed with. They match what the packages are compiled with, but
 * stand on their own: a consumer reads only the emitted `.d.ts`, so the report should too.
 */
const ANALYSIS_COMPILER_OPTIONS = {
  target: 'ES2023',
  lib: ['ES2023'],
  types: ['node'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  // The declarations were type-checked when they were emitted; checking them (and every dependency's
  // types) again would only slow the report down and surface other libraries' problems.
  skipLibCheck: true,
  noEmit: true,
};

function configFor(root: string, entry: ApiEntry, scratch: string): IConfigFile {
  const projectFolder = join(root, entry.packageDir);
  const mainEntryPointFilePath = join(projectFolder, entry.typesPath);
  return {
    projectFolder,
    mainEntryPointFilePath,
    bundledPackages: [],
    newlineKind: 'lf',
    compiler: {
      // Only the entry point is listed; everything it imports is found by module resolution, so the
      // analysis never globs a package's sources.
      overrideTsconfig: {
        compilerOptions: ANALYSIS_COMPILER_OPTIONS,
        files: [mainEntryPointFilePath],
      },
    },
    apiReport: {
      enabled: true,
      // The caller compares and saves reports itself; API Extractor only writes into a scratch folder,
      // and its own comparison sees the same file on both sides, so it never complains.
      reportFileName: 'report',
      reportFolder: scratch,
      reportTempFolder: scratch,
      // A signature that uses a type the entry does not export still changes when that type does,
      // so the type's shape goes into the report too.
      includeForgottenExports: true,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
      extractorMessageReporting: {
        default: { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: false },
        // Release tags (@public, @beta) are not how this repository marks stability.
        'ae-missing-release-tag': OFF,
        'ae-internal-missing-underscore': OFF,
        'ae-incompatible-release-tags': OFF,
        // Doc-comment cross references are the docs' business, not the surface's.
        'ae-unresolved-link': OFF,
        'ae-unresolved-inheritdoc-reference': OFF,
        'ae-unresolved-inheritdoc-base': OFF,
        // Which members lack a doc comment is the linter's business; the report is about signatures.
        'ae-undocumented': OFF,
        // The type is in the report anyway (see includeForgottenExports), shown without `export`. The
        // note would also fire for types the package exports from another entry point, which misleads.
        'ae-forgotten-export': OFF,
      },
      // The repository writes JSDoc (`@example`, `@module`, `@throws {Type}`), not strict TSDoc.
      tsdocMessageReporting: { default: OFF },
    },
  };
}

function prepare(root: string, entry: ApiEntry, scratch: string): ExtractorConfig {
  const packageJsonFullPath = join(root, entry.packageDir, 'package.json');
  return ExtractorConfig.prepare({
    configObject: configFor(root, entry, scratch),
    configObjectFullPath: undefined,
    packageJsonFullPath,
  });
}

function formatMessage(message: ExtractorMessage, root: string): string {
  const where = message.sourceFilePath
    ? `${relative(root, message.sourceFilePath)}:${message.sourceFileLine ?? 0}: `
    : '';
  return `${where}${message.text}${message.messageId ? ` (${message.messageId})` : ''}`;
}

/**
 * The API report of every entry, in the order given. One TypeScript program is shared by all entries,
 * which makes a run several times faster than analysing each entry on its own.
 *
 * @throws {MissingBuildError} when an entry's declaration file does not exist.
 *
 * @example
 * for (const { entry, text, errors } of extractReports(root, discoverEntries(root))) {
 *   if (errors.length === 0) writeFileSync(reportPathOf(entry), text);
 * }
 */
export function extractReports(root: string, entries: readonly ApiEntry[]): ExtractedReport[] {
  const missing = entries
    .map((entry) => `${entry.packageDir}/${entry.typesPath}`)
    .filter((path) => !existsSync(join(root, path)));
  if (missing.length > 0) {
    throw new MissingBuildError(
      `These declaration files do not exist: ${missing.join(', ')}. Build the packages first: pnpm build`,
    );
  }
  const first = entries[0];
  if (!first) return [];

  const scratch = mkdtempSync(join(tmpdir(), 'tiny-claw-api-report-'));
  try {
    const compilerState = CompilerState.create(prepare(root, first, scratch), {
      additionalEntryPoints: entries.map((entry) => join(root, entry.packageDir, entry.typesPath)),
    });
    return entries.map((entry) => {
      const errors: string[] = [];
      const warnings: string[] = [];
      const config = prepare(root, entry, scratch);
      try {
        Extractor.invoke(config, {
          compilerState,
          localBuild: true,
          showVerboseMessages: false,
          messageCallback: (message) => {
            message.handled = true;
            if (message.logLevel === ExtractorLogLevel.Error) {
              errors.push(formatMessage(message, root));
            } else if (message.logLevel === ExtractorLogLevel.Warning) {
              warnings.push(formatMessage(message, root));
            }
          },
        });
      } catch (error) {
        // API Extractor throws on declarations it cannot follow; that is a finding about this entry.
        errors.push(
          `API Extractor stopped: ${error instanceof Error ? error.message : String(error)}`,
        );
        return { entry, text: '', errors, warnings };
      }
      const text = readFileSync(config.reportTempFilePath, 'utf8');
      rmSync(config.reportTempFilePath, { force: true });
      return { entry, text: tidyReport(text, entry), errors, warnings };
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
