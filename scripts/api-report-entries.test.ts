import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiEntryError,
  discoverEntries,
  entriesFromManifest,
  reportNameFor,
  reportPathOf,
} from './api-report-entries.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const temps: string[] = [];

function repoWith(manifests: Record<string, unknown>): string {
  const root = mkdtempSync(join(tmpdir(), 'tc-api-entries-'));
  temps.push(root);
  mkdirSync(join(root, 'packages'));
  for (const [folder, manifest] of Object.entries(manifests)) {
    mkdirSync(join(root, 'packages', folder));
    writeFileSync(
      join(root, 'packages', folder, 'package.json'),
      typeof manifest === 'string' ? manifest : JSON.stringify(manifest),
    );
  }
  return root;
}

/** The shape every package in this repository uses for one entry point. */
function built(path: string) {
  return {
    '@tiny-claw/source': `./src/${path}.ts`,
    types: `./dist/${path}.d.ts`,
    default: `./dist/${path}.js`,
  };
}

afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('report file names', () => {
  it('names the root entry index and a subpath after its last segments', () => {
    expect(reportNameFor('.')).toBe('index');
    expect(reportNameFor('./testing')).toBe('testing');
    expect(reportNameFor('./otel/grpc')).toBe('otel-grpc');
  });

  it('puts each report in the api-report folder of its own package', () => {
    expect(reportPathOf({ packageDir: 'packages/core', reportName: 'utils' })).toBe(
      'packages/core/api-report/utils.api.md',
    );
  });
});

describe('entries from a manifest', () => {
  it('reports the built declarations of every subpath, not the workspace source condition', () => {
    const entries = entriesFromManifest(
      {
        name: '@tiny-claw/core',
        exports: {
          '.': built('index'),
          './testing': built('testing/index'),
          './utils': built('utils/index'),
          './package.json': './package.json',
        },
      },
      'packages/core',
    );
    expect(entries).toEqual([
      {
        packageName: '@tiny-claw/core',
        packageDir: 'packages/core',
        subpath: '.',
        importPath: '@tiny-claw/core',
        typesPath: 'dist/index.d.ts',
        reportName: 'index',
      },
      {
        packageName: '@tiny-claw/core',
        packageDir: 'packages/core',
        subpath: './testing',
        importPath: '@tiny-claw/core/testing',
        typesPath: 'dist/testing/index.d.ts',
        reportName: 'testing',
      },
      {
        packageName: '@tiny-claw/core',
        packageDir: 'packages/core',
        subpath: './utils',
        importPath: '@tiny-claw/core/utils',
        typesPath: 'dist/utils/index.d.ts',
        reportName: 'utils',
      },
    ]);
  });

  it('finds the declarations beside the JavaScript when there is no types condition', () => {
    const [entry] = entriesFromManifest(
      { name: 'x', exports: { '.': { import: './dist/main.mjs' } } },
      'packages/x',
    );
    expect(entry?.typesPath).toBe('dist/main.d.mts');
  });

  it('follows nested conditions the way a consumer resolves them', () => {
    const [entry] = entriesFromManifest(
      {
        name: 'x',
        exports: {
          '.': { import: { types: './dist/esm/index.d.ts', default: './dist/esm/index.js' } },
        },
      },
      'packages/x',
    );
    expect(entry?.typesPath).toBe('dist/esm/index.d.ts');
  });

  it('accepts the shorthands: a string, or conditions without subpaths', () => {
    expect(entriesFromManifest({ name: 'x', exports: './dist/a.js' }, 'p')[0]?.typesPath).toBe(
      'dist/a.d.ts',
    );
    expect(
      entriesFromManifest({ name: 'x', exports: built('index') }, 'p').map((e) => e.subpath),
    ).toEqual(['.']);
  });

  it('falls back to the types field when there is no exports map', () => {
    expect(entriesFromManifest({ name: 'x', types: './dist/index.d.ts' }, 'p')[0]?.typesPath).toBe(
      'dist/index.d.ts',
    );
  });

  it('skips subpaths without a TypeScript surface', () => {
    const entries = entriesFromManifest(
      { name: 'x', exports: { '.': built('index'), './data.json': './data.json', './gone': null } },
      'p',
    );
    expect(entries.map((entry) => entry.subpath)).toEqual(['.']);
  });

  it('refuses a subpath pattern, naming the file and the pattern', () => {
    expect(() =>
      entriesFromManifest({ name: 'x', exports: { '.': built('index'), './*': built('*') } }, 'p'),
    ).toThrow(/p\/package\.json: export "\.\/\*" is a pattern/);
  });

  it('refuses an entry whose consumers would get TypeScript source', () => {
    expect(() =>
      entriesFromManifest({ name: 'x', exports: { '.': './src/index.ts' } }, 'p'),
    ).toThrow(/add a "types" condition/);
  });

  it('refuses two subpaths that would share one report file', () => {
    expect(() =>
      entriesFromManifest(
        { name: 'x', exports: { '.': built('index'), './index': built('index2') } },
        'p',
      ),
    ).toThrow(/"\." and "\.\/index" would both be reported as index\.api\.md/);
  });

  it('refuses exports that mix subpaths and conditions', () => {
    expect(() =>
      entriesFromManifest({ name: 'x', exports: { '.': built('index'), types: './a.d.ts' } }, 'p'),
    ).toThrow(ApiEntryError);
  });

  it('refuses a manifest with no entry point at all', () => {
    expect(() => entriesFromManifest({ name: 'x' }, 'p')).toThrow(/neither "exports" nor "types"/);
    expect(() =>
      entriesFromManifest({ name: 'x', exports: { './package.json': './package.json' } }, 'p'),
    ).toThrow(/declares no TypeScript entry point/);
  });
});

describe('entries of a repository', () => {
  it('covers published packages only, in folder order', () => {
    const root = repoWith({
      tools: { name: '@x/tools', exports: { '.': built('index') } },
      core: { name: '@x/core', exports: { '.': built('index'), './testing': built('testing') } },
      testkit: { name: '@x/testkit', private: true, exports: { '.': built('index') } },
    });
    expect(discoverEntries(root).map((entry) => entry.importPath)).toEqual([
      '@x/core',
      '@x/core/testing',
      '@x/tools',
    ]);
  });

  it('says which manifest is broken', () => {
    expect(() => discoverEntries(repoWith({ core: '{ "name": ' }))).toThrow(
      /packages\/core\/package\.json: is not valid JSON/,
    );
    expect(() => discoverEntries(repoWith({ core: { name: 7 } }))).toThrow(
      /packages\/core\/package\.json: "name"/,
    );
  });

  it('covers every entry point this repository publishes', () => {
    const entries = discoverEntries(repoRoot);
    const published = readdirSync(join(repoRoot, 'packages')).filter((folder) => {
      try {
        const manifest = JSON.parse(
          readFileSync(join(repoRoot, 'packages', folder, 'package.json'), 'utf8'),
        ) as { private?: boolean };
        return manifest.private !== true;
      } catch {
        return false;
      }
    });
    expect(new Set(entries.map((entry) => entry.packageDir))).toEqual(
      new Set(published.map((folder) => `packages/${folder}`)),
    );
    expect(entries.map((entry) => entry.importPath)).toEqual(
      expect.arrayContaining([
        '@tiny-claw/core',
        '@tiny-claw/core/testing',
        '@tiny-claw/tracing/otel',
      ]),
    );
    expect(entries.some((entry) => entry.packageName === '@tiny-claw/testkit')).toBe(false);
  });
});
