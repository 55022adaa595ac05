/**
 * The dependency law, checked by reading every package.json and every import. Core stays a small
 * kernel that any adapter can depend on, so:
 * 1. core imports no other workspace package and no vendor SDK: only relative modules, `node:`
 *    built-ins and `zod` (schemas at its boundaries). It reads no project file either: AGENTS.md
 *    and skills (with their YAML frontmatter) are `@tiny-claw/workspace`'s, and so is the file
 *    state store (core holds the `StateStore` interface and the store in memory);
 * 2. each vendor SDK is a runtime dependency of its one owner package only;
 * 3. nothing in packages/ depends on or imports from apps/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** The one package allowed to depend on each vendor SDK at runtime. */
export const SDK_OWNERS: Readonly<Record<string, readonly string[]>> = {
  openai: ['@tiny-claw/providers-openai'],
  '@anthropic-ai/sdk': ['@tiny-claw/providers-claude'],
  '@larksuiteoapi/node-sdk': ['@tiny-claw/server'],
  hono: ['@tiny-claw/server'],
  '@hono/node-server': ['@tiny-claw/server'],
  pg: ['@tiny-claw/store-postgres'],
  '@modelcontextprotocol/sdk': ['@tiny-claw/mcp'],
};

/** What core's own (non-test) source may import besides relative paths and `node:` built-ins. */
const CORE_ALLOWED = new Set(['zod']);
/** What core's tests may import: the same, plus the test tools. */
const CORE_TEST_ALLOWED = new Set([...CORE_ALLOWED, 'vitest', 'fast-check']);
/**
 * What core's shipped source may take from node:fs: whether a path exists and where it really
 * leads, nothing that reads or changes a file. Files are `@tiny-claw/workspace`'s.
 */
const CORE_FS_ALLOWED = new Set(['stat', 'lstat', 'realpath', 'constants']);
const FS_IMPORT_RE = /import\s+(type\s+)?([^'";]*?)\s+from\s+['"](?:node:)?fs(?:\/promises)?['"]/g;

/**
 * The node:fs names `source` imports that core may not use (every name of a namespace or default
 * import, since those can reach anything).
 *
 * @example
 * coreFsViolations("import { stat, writeFile } from 'node:fs/promises';"); // ['writeFile']
 */
export function coreFsViolations(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(FS_IMPORT_RE)) {
    if (match[1]) continue; // type-only imports bring no function
    const clause = match[2] ?? '';
    const named = /\{([^}]*)\}/.exec(clause);
    const outside = clause
      .replace(/\{[^}]*\}/, '')
      .replace(/,/g, ' ')
      .trim();
    if (outside !== '') found.push(outside);
    for (const part of named?.[1]?.split(',') ?? []) {
      const entry = part.trim();
      if (entry === '' || entry.startsWith('type ')) continue;
      const name = entry.split(/\s+as\s+/)[0]?.trim() ?? '';
      if (!CORE_FS_ALLOWED.has(name)) found.push(name);
    }
  }
  return found;
}

export interface Violation {
  rule: 1 | 2 | 3 | 4;
  where: string;
  message: string;
}

interface Workspace {
  name: string;
  dir: string;
  isApp: boolean;
  manifest: {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
}

// Static forms must start a statement; dynamic import() and require() may appear anywhere.
const IMPORT_RE =
  /^\s*(?:import|export)\s*(?:type\s+)?(?:[^'"`;]*?\sfrom\s*)?['"]([^'"]+)['"]|(?:^|[^\w$.])import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[^\w$.])require\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Every module specifier imported, re-exported, dynamically imported or required in `source`. */
export function importSpecifiers(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT_RE)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (spec) found.push(spec);
  }
  return found;
}

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `zod/v4` → `zod`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}

function listWorkspaces(root: string): Workspace[] {
  const out: Workspace[] = [];
  for (const group of ['packages', 'apps']) {
    const base = join(root, group);
    let entries: string[] = [];
    try {
      entries = readdirSync(base);
    } catch {
      continue;
    }
    for (const entry of entries.sort()) {
      const dir = join(base, entry);
      let manifestText: string;
      try {
        manifestText = readFileSync(join(dir, 'package.json'), 'utf8');
      } catch {
        continue;
      }
      const manifest = JSON.parse(manifestText) as Workspace['manifest'] & { name: string };
      out.push({ name: manifest.name, dir, isApp: group === 'apps', manifest });
    }
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current)) {
      if (entry === 'node_modules' || entry === 'dist' || entry === '.turbo') continue;
      const path = join(current, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(c|m)?[jt]sx?$/.test(entry) && !entry.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const sub of ['src', 'test', 'bin']) {
    try {
      if (statSync(join(dir, sub)).isDirectory()) walk(join(dir, sub));
    } catch {
      // A package without this folder has nothing to check there.
    }
  }
  return files;
}

const isTestFile = (path: string) =>
  /\.test\.[cm]?[jt]sx?$/.test(path) ||
  path.includes(`${sep}__fixtures__${sep}`) ||
  path.includes(`${sep}testing${sep}fakes`);

/**
 * Check the repository at `root` and return every violation (empty when the law holds).
 *
 * @example
 * checkDependencyLaw(process.cwd()); // []
 */
export function checkDependencyLaw(root: string): Violation[] {
  const violations: Violation[] = [];
  const workspaces = listWorkspaces(root);
  const names = new Set(workspaces.map((w) => w.name));
  const appNames = new Set(workspaces.filter((w) => w.isApp).map((w) => w.name));
  const appsDir = resolve(root, 'apps');

  for (const ws of workspaces) {
    const where = relative(root, ws.dir);
    const runtimeDeps = { ...ws.manifest.dependencies, ...ws.manifest.peerDependencies };
    const isCore = ws.name === '@tiny-claw/core';

    for (const dep of Object.keys(runtimeDeps)) {
      if (isCore && !CORE_ALLOWED.has(dep)) {
        violations.push({
          rule: 1,
          where: `${where}/package.json`,
          message: `core must not depend on ${dep}`,
        });
      }
      const owners = SDK_OWNERS[dep];
      if (owners && !owners.includes(ws.name)) {
        violations.push({
          rule: 2,
          where: `${where}/package.json`,
          message: `${dep} may be a runtime dependency of ${owners.join(', ')} only, not ${ws.name}`,
        });
      }
      if (!ws.isApp && appNames.has(dep)) {
        violations.push({
          rule: 3,
          where: `${where}/package.json`,
          message: `a package must not depend on the app ${dep}`,
        });
      }
    }

    for (const file of sourceFiles(ws.dir)) {
      const fileWhere = relative(root, file);
      const test = isTestFile(file);
      const source = readFileSync(file, 'utf8');
      // The testing entry's loadScript reads the script file its caller names; the agent API reads none.
      const coreTesting = file.includes(`${sep}src${sep}testing${sep}`);
      if (isCore && !test && !coreTesting) {
        for (const name of coreFsViolations(source)) {
          violations.push({
            rule: 1,
            where: fileWhere,
            message: `core must not read or write files (imports ${name} from node:fs)`,
          });
        }
      }
      for (const spec of importSpecifiers(source)) {
        if (spec.startsWith('.') || spec.startsWith('/')) {
          const target = resolve(file, '..', spec);
          if (!ws.isApp && (target === appsDir || target.startsWith(appsDir + sep))) {
            violations.push({ rule: 3, where: fileWhere, message: `imports ${spec} from apps/` });
          }
          continue;
        }
        if (spec.startsWith('node:')) continue;
        const pkg = packageOf(spec);
        if (isCore && !(test ? CORE_TEST_ALLOWED : CORE_ALLOWED).has(pkg)) {
          violations.push({ rule: 1, where: fileWhere, message: `core must not import ${spec}` });
          continue;
        }
        const owners = SDK_OWNERS[pkg];
        if (owners && !test && !owners.includes(ws.name)) {
          violations.push({
            rule: 2,
            where: fileWhere,
            message: `${pkg} may only be imported by ${owners.join(', ')}`,
          });
        }
        if (!ws.isApp && appNames.has(pkg)) {
          violations.push({
            rule: 3,
            where: fileWhere,
            message: `a package must not import the app ${pkg}`,
          });
        }
        if (names.has(pkg) && pkg !== ws.name && !test && !(pkg in runtimeDeps)) {
          violations.push({
            rule: 4,
            where: fileWhere,
            message: `imports ${pkg} without declaring it in ${where}/package.json dependencies`,
          });
        }
      }
    }
  }
  return violations;
}
