import type { Document, LineCounter } from 'yaml';
import { loadYaml, type YamlModule } from './yaml-loader.js';

/** A frontmatter value: a scalar string, or a list of strings. */
export type FrontmatterValue = string | readonly string[];

/** Why a frontmatter block was not used: where and what to fix. */
export interface FrontmatterError {
  /** 1-based line (of the whole document once `parseFrontmatter` reports it). */
  line: number;
  /** One sentence that never quotes the document's values. */
  reason: string;
}

/**
 * Alias expansions allowed while turning the YAML into values (the yaml package's `maxAliasCount`):
 * enough for honest reuse, far below what a "billion laughs" document needs.
 */
export const FRONTMATTER_MAX_ALIASES = 50;

/**
 * Deepest nesting of lists and mappings accepted. The yaml package builds its document
 * recursively, and a few thousand nested `[` (well inside the size cap of a SKILL.md) were measured
 * to abort the whole Node process in V8's regular-expression compiler rather than throw; its
 * token parser is iterative, so the depth is checked on its tokens first.
 */
export const FRONTMATTER_MAX_DEPTH = 64;

/** Explicit tags the failsafe schema knows; any other tag is refused rather than guessed at. */
const ALLOWED_TAGS = new Set([
  'tag:yaml.org,2002:str',
  'tag:yaml.org,2002:seq',
  'tag:yaml.org,2002:map',
]);

const COLLECTION_TOKENS = new Set(['block-map', 'block-seq', 'flow-collection']);

/**
 * Read the YAML between the `---` fences into frontmatter data (see `parseFrontmatter` for
 * the rules), or say why not. Lines in an error are numbered within the block. Never throws.
 *
 * @example
 * await readFrontmatterBlock('name: review\ntriggers: [a, b]'); // { data: { name: 'review', triggers: ['a', 'b'] } }
 */
export async function readFrontmatterBlock(
  block: string,
): Promise<{ data: Record<string, FrontmatterValue> } | { error: FrontmatterError }> {
  let yaml: YamlModule;
  try {
    yaml = await loadYaml();
  } catch (error) {
    return {
      error: { line: 0, reason: `the YAML parser could not be loaded (${describe(error)})` },
    };
  }
  try {
    const tooDeep = depthError(yaml, block);
    if (tooDeep) return { error: tooDeep };
    const lineCounter = new yaml.LineCounter();
    const doc = yaml.parseDocument(block, {
      schema: 'failsafe',
      // Known non-failsafe tags (!!binary, !!int …) would otherwise be resolved; now they are refused.
      resolveKnownTags: false,
      logLevel: 'silent',
      lineCounter,
    });
    const first = doc.errors[0];
    if (first) {
      // The message is "<reason> at line L, column C:\n\n<excerpt>"; keep only the reason.
      const reason = (first.message.split('\n')[0] ?? '').replace(
        / at line \d+, column \d+:?$/,
        '',
      );
      return {
        error: {
          line: first.linePos?.[0].line ?? 1,
          reason: `it is not valid YAML (${reason}); quote a value that contains ": " or " #"`,
        },
      };
    }
    const refused = refusedNode(yaml, doc, lineCounter);
    if (refused) return { error: refused };
    if (doc.contents === null) return { data: {} };
    if (!yaml.isMap(doc.contents)) {
      return {
        error: {
          line: lineOf(doc.contents, lineCounter),
          reason: 'it must be a mapping of "key: value" lines, not a list or a single value',
        },
      };
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: FRONTMATTER_MAX_ALIASES });
    } catch (error) {
      // yaml signals an alias bomb with a ReferenceError; anything else is reported below.
      if (!(error instanceof ReferenceError)) throw error;
      return {
        error: {
          line: firstAliasLine(yaml, doc, lineCounter),
          reason: `its aliases expand to too much data (more than ${FRONTMATTER_MAX_ALIASES} expansions); write the values out`,
        },
      };
    }
    return { data: flatten(value as Record<string, unknown>) };
  } catch (error) {
    return { error: { line: 0, reason: `it could not be parsed (${describe(error)})` } };
  }
}

/** An error when lists and mappings nest deeper than the limit, found without recursion. */
function depthError(yaml: YamlModule, block: string): FrontmatterError | undefined {
  const lineCounter = new yaml.LineCounter();
  const stack: [unknown, number][] = [];
  for (const token of new yaml.Parser(lineCounter.addNewLine).parse(block)) stack.push([token, 0]);
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    const { type, offset } = node as { type?: unknown; offset?: unknown };
    const nested = typeof type === 'string' && COLLECTION_TOKENS.has(type) ? depth + 1 : depth;
    if (nested > FRONTMATTER_MAX_DEPTH) {
      return {
        line: lineCounter.linePos(typeof offset === 'number' ? offset : 0).line,
        reason: `its lists and mappings nest deeper than ${FRONTMATTER_MAX_DEPTH} levels`,
      };
    }
    for (const child of Object.values(node)) stack.push([child, nested]);
  }
  return undefined;
}

/** The first explicit tag outside the failsafe schema, or non-scalar key, as an error. */
function refusedNode(
  yaml: YamlModule,
  doc: Document,
  lineCounter: LineCounter,
): FrontmatterError | undefined {
  let refused: FrontmatterError | undefined;
  yaml.visit(doc, {
    Node(_, node) {
      if (node.tag === undefined || ALLOWED_TAGS.has(node.tag)) return undefined;
      refused = {
        line: lineOf(node, lineCounter),
        reason: `the tag ${node.tag} is not allowed; remove it (only plain text, lists and mappings are read)`,
      };
      return yaml.visit.BREAK;
    },
    Pair(_, pair) {
      // Parsed keys are always a node or null.
      if (!yaml.isNode(pair.key) || yaml.isScalar(pair.key)) return undefined;
      refused = {
        line: lineOf(pair.key, lineCounter),
        reason: 'a key must be plain text, not a list or a mapping',
      };
      return yaml.visit.BREAK;
    },
  });
  return refused;
}

function firstAliasLine(yaml: YamlModule, doc: Document, lineCounter: LineCounter): number {
  let line = 1;
  yaml.visit(doc, {
    Alias(_, alias) {
      line = lineOf(alias, lineCounter);
      return yaml.visit.BREAK;
    },
  });
  return line;
}

function lineOf(node: { range?: readonly number[] | null }, lineCounter: LineCounter): number {
  return lineCounter.linePos(node.range?.[0] ?? 0).line;
}

/**
 * The mapping as frontmatter data: keys lower-cased, sequences kept as their string items, nested
 * mappings flattened into `parent.child` keys, null values as `''`; own properties only, so
 * `__proto__` is plain data.
 */
function flatten(map: Record<string, unknown>): Record<string, FrontmatterValue> {
  const entries: [string, FrontmatterValue][] = [];
  const walk = (value: Record<string, unknown>, prefix: string) => {
    for (const [rawKey, item] of Object.entries(value)) {
      const key = `${prefix}${rawKey.toLowerCase()}`;
      if (typeof item === 'string') entries.push([key, item]);
      else if (item === null || item === undefined) entries.push([key, '']);
      else if (Array.isArray(item)) {
        entries.push([key, item.filter((entry): entry is string => typeof entry === 'string')]);
      } else if (typeof item === 'object') walk(item as Record<string, unknown>, `${key}.`);
    }
  };
  walk(map, '');
  // fromEntries defines own properties, so a `__proto__:` key cannot reach the prototype.
  return Object.fromEntries(entries);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
