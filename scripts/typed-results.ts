/**
 * Results between packages are typed fields, never metadata keys. A tool's or a message's
 * `metadata` is its writer's own details (an exit code, the loop's call index); whatever another
 * package acts on — whether a call failed, how, the executor's verdict, a blocked repeat, a
 * closing note — is a typed field (`isError`, `failure`, `blocked`, `footerChars`).
 *
 * So the shipped source of every package and app
 * - reads no key out of something's `metadata` (`x.metadata.key`, `x.metadata?.key`,
 *   `x.metadata[key]`) and keeps no one else's record in a variable of its own
 *   (`const m = x.metadata ?? {}`): only the writer of a metadata record looks inside it, and it
 *   builds that record itself (passing a record on whole, or spreading it, is fine);
 * - never names a key the old metadata protocol used (`error_type`, `is_error`, `doom_loop_*`, …),
 *   except where the word belongs to another format: the trace file's attributes, Anthropic's
 *   `tool_result`, a log line's fields, and the one reader that lifts an older saved state's keys
 *   into the typed fields.
 *
 * Tests and fixtures are not scanned: they may build old states on purpose.
 */
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The keys tool results and messages carried in their metadata before the fields were typed.
 *
 * @example
 * RETIRED_KEYS.includes('error_type'); // true
 */
export const RETIRED_KEYS = [
  'error_type',
  'tool_error_type',
  'is_error',
  'suggested_tool',
  'doom_loop_detected',
  'doom_loop_tool',
  'loop_breaker',
  'tool_policy',
  'risk_reasons',
  'footer_chars',
] as const;

/**
 * Where a retired key may still be named, and why: the word belongs to a format of its own. Only
 * the reader of older saved states may also read the keys out of a metadata record (`reads`). A
 * directory ends with `/`.
 */
export const RETIRED_KEY_HOMES: ReadonlyArray<{ path: string; why: string; reads?: true }> = [
  {
    path: 'packages/tracing/src/',
    why: 'the trace file is a public format: its attribute names stay what they always were',
  },
  {
    path: 'packages/providers-claude/src/request-mapping.ts',
    why: "Anthropic's tool_result block has an is_error field",
  },
  {
    path: 'packages/core/src/executor/strings.ts',
    why: 'the guidance log line names its fields',
  },
  {
    path: 'packages/core/src/messages.ts',
    why: 'the schema lifts an older saved state’s is_error and footer_chars into the typed fields',
    reads: true,
  },
];

/**
 * One place a package reaches into metadata.
 *
 * @example
 * const found: MetadataUse = { file: 'packages/x/src/a.ts', line: 3, rule: 'reads a metadata key', text: '…' };
 */
export interface MetadataUse {
  file: string;
  line: number;
  rule: string;
  text: string;
}

const METADATA_READ = /\.metadata(?:\?\.|\.|\[)/;
const METADATA_ALIAS =
  /\b(?:const|let|var)\s+\w+\s*(?::[^=]+)?=\s*[\w.?]+\.metadata\s*(?:\?\?|\|\||;|,|$)/;
const RETIRED_KEY = new RegExp(`\\b(?:${RETIRED_KEYS.join('|')})\\b`);
const RETIRED_KEY_READ = new RegExp(
  `\\bmetadata(?:\\?\\.|\\.)(?:${RETIRED_KEYS.join('|')})\\b|\\bmetadata(?:\\?\\.)?\\[\\s*['"\`](?:${RETIRED_KEYS.join('|')})`,
);

/**
 * What a file of shipped source may do with the retired keys: nothing, name them (`named`), or
 * also read them out of a metadata record (`read`). See {@link RETIRED_KEY_HOMES}.
 *
 * @example
 * const allowance: RetiredKeyAllowance = 'named';
 */
export type RetiredKeyAllowance = 'none' | 'named' | 'read';

/**
 * The metadata uses on one line of shipped source.
 *
 * @example
 * metadataUses('if (observation.metadata?.is_error) retry();', 'none').map((use) => use.rule);
 * // ['reads a metadata key', 'names a retired metadata key']
 */
export function metadataUses(
  line: string,
  retiredKeys: RetiredKeyAllowance,
): Array<Pick<MetadataUse, 'rule' | 'text'>> {
  const uses: Array<Pick<MetadataUse, 'rule' | 'text'>> = [];
  const text = line.trim();
  if (METADATA_READ.test(line) || (retiredKeys !== 'read' && RETIRED_KEY_READ.test(line))) {
    uses.push({ rule: 'reads a metadata key', text });
  }
  if (METADATA_ALIAS.test(line)) uses.push({ rule: 'keeps another’s metadata record', text });
  if (retiredKeys === 'none' && RETIRED_KEY.test(line)) {
    uses.push({ rule: 'names a retired metadata key', text });
  }
  return uses;
}

/** Shipped TypeScript under `dir`: no tests, no fixtures, no build output. */
function shippedSources(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return ['__fixtures__', 'node_modules', 'dist'].includes(entry.name)
        ? []
        : shippedSources(path);
    }
    return /\.(?:ts|tsx|mts)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Every metadata use in the shipped source (`<group>/<package>/src`) of the packages, apps and
 * examples under `root`.
 *
 * @example
 * scanMetadataUses(repoRoot); // [] when every result between packages is typed
 */
export function scanMetadataUses(root: string): MetadataUse[] {
  const sources = ['packages', 'apps', 'examples'].flatMap((group) => {
    let packages: string[];
    try {
      packages = readdirSync(join(root, group));
    } catch {
      return [];
    }
    return packages.flatMap((name) => shippedSources(join(root, group, name, 'src')));
  });
  return sources.flatMap((path) => {
    const file = relative(root, path);
    const home = RETIRED_KEY_HOMES.find((candidate) =>
      candidate.path.endsWith('/') ? file.startsWith(candidate.path) : file === candidate.path,
    );
    const allowance: RetiredKeyAllowance =
      home === undefined ? 'none' : home.reads ? 'read' : 'named';
    return readFileSync(path, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        metadataUses(line, allowance).map((use) => ({ file, line: index + 1, ...use })),
      );
  });
}
