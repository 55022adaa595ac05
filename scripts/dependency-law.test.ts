import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDependencyLaw, coreFsViolations, importSpecifiers } from './dependency-law.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const temps: string[] = [];

/** A minimal repo: core, tools, a provider package and the cli app, each with one source file. */
function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tc-deplaw-'));
  temps.push(root);
  const base: Record<string, string> = {
    'packages/core/package.json': JSON.stringify({
      name: '@tiny-claw/core',
      peerDependencies: { zod: '^4' },
    }),
    'packages/core/src/index.ts':
      "import { z } from 'zod';\nimport { realpath } from 'node:fs/promises';\nexport * from './loop.js';\n",
    'packages/tools/package.json': JSON.stringify({
      name: '@tiny-claw/tools',
      dependencies: { '@tiny-claw/core': 'workspace:^' },
    }),
    'packages/tools/src/index.ts': "import { defineTool } from '@tiny-claw/core';\n",
    'packages/providers-openai/package.json': JSON.stringify({
      name: '@tiny-claw/providers-openai',
      dependencies: { '@tiny-claw/core': 'workspace:^', openai: '^6' },
    }),
    'packages/providers-openai/src/index.ts':
      "const { default: OpenAI } = await import('openai');\n",
    'apps/cli/package.json': JSON.stringify({
      name: 'tiny-claw',
      dependencies: { '@tiny-claw/core': 'workspace:^' },
    }),
    'apps/cli/src/main.ts': "import { MainLoop } from '@tiny-claw/core';\n",
  };
  for (const [path, text] of Object.entries({ ...base, ...files })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('dependency law', () => {
  it('holds for this repository', () => {
    expect(checkDependencyLaw(repoRoot)).toEqual([]);
  });

  it('holds for a clean fixture', () => {
    expect(checkDependencyLaw(fixture({}))).toEqual([]);
  });

  it.each([
    ["import { stat, realpath } from 'node:fs/promises';", []],
    ["import { lstat } from 'fs/promises';", []],
    ["import { constants } from 'node:fs';", []],
    ["import type { FileHandle } from 'node:fs/promises';", []],
    ["import { type Stats, stat } from 'node:fs';", []],
    ["import { writeFile } from 'node:fs/promises';", ['writeFile']],
    ["import { readFile } from 'node:fs/promises';", ['readFile']],
    ["import { open as openFile, stat } from 'node:fs/promises';", ['open']],
    ["import { mkdir,\n  rename } from 'fs/promises';", ['mkdir', 'rename']],
    ["import * as fs from 'node:fs';", ['* as fs']],
    ["import fs from 'node:fs';", ['fs']],
    ["import fs, { stat } from 'node:fs';", ['fs']],
  ])(
    'rule 1: core may look at where a path leads, not read or change a file: %j',
    (source, expected) => {
      expect(coreFsViolations(source)).toEqual(expected);
    },
  );

  it('rule 1: fails when core source imports a writing node:fs function, not when a core test does', () => {
    const root = fixture({
      'packages/core/src/save.ts': "import { writeFile } from 'node:fs/promises';\n",
      'packages/core/src/save.test.ts': "import { writeFile } from 'node:fs/promises';\n",
    });
    expect(checkDependencyLaw(root)).toEqual([
      expect.objectContaining({
        rule: 1,
        where: join('packages', 'core', 'src', 'save.ts'),
        message: 'core must not read or write files (imports writeFile from node:fs)',
      }),
    ]);
  });

  it('rule 1: lets core import zod, even lazily', () => {
    const root = fixture({
      'packages/core/src/schema.ts':
        "import type { ZodType } from 'zod';\nexport const load = () => import('zod');\n",
    });
    expect(checkDependencyLaw(root)).toEqual([]);
  });

  it('rule 1: fails when core depends on or imports yaml: skill frontmatter belongs to the workspace package', () => {
    const root = fixture({
      'packages/core/package.json': JSON.stringify({
        name: '@tiny-claw/core',
        dependencies: { yaml: '^2.9.1' },
        peerDependencies: { zod: '^4' },
      }),
      'packages/core/src/frontmatter.ts': "export const load = () => import('yaml');\n",
    });
    expect(checkDependencyLaw(root)).toEqual([
      expect.objectContaining({ rule: 1, message: 'core must not depend on yaml' }),
      expect.objectContaining({ rule: 1, message: 'core must not import yaml' }),
    ]);
  });

  it('rule 1: fails when core imports the workspace package that reads project files', () => {
    const root = fixture({
      'packages/core/src/context.ts': "import { workspaceContext } from '@tiny-claw/workspace';\n",
    });
    expect(checkDependencyLaw(root)).toEqual([
      expect.objectContaining({
        rule: 1,
        where: 'packages/core/src/context.ts',
        message: 'core must not import @tiny-claw/workspace',
      }),
    ]);
  });

  it('lets the workspace package depend on core and yaml', () => {
    const root = fixture({
      'packages/workspace/package.json': JSON.stringify({
        name: '@tiny-claw/workspace',
        dependencies: { '@tiny-claw/core': 'workspace:^', yaml: '^2.9.1' },
      }),
      'packages/workspace/src/index.ts':
        "import type { ProjectContext } from '@tiny-claw/core';\nexport const load = () => import('yaml');\n",
    });
    expect(checkDependencyLaw(root)).toEqual([]);
  });

  it('rule 1: fails when core, even a core test, takes the file store from the workspace package', () => {
    const root = fixture({
      'packages/core/package.json': JSON.stringify({
        name: '@tiny-claw/core',
        devDependencies: { '@tiny-claw/workspace': 'workspace:*' },
        peerDependencies: { zod: '^4' },
      }),
      'packages/core/src/agent.test.ts':
        "import { createFileStore } from '@tiny-claw/workspace';\n",
    });
    expect(checkDependencyLaw(root)).toEqual([
      expect.objectContaining({
        rule: 1,
        where: 'packages/core/src/agent.test.ts',
        message: 'core must not import @tiny-claw/workspace',
      }),
    ]);
  });

  it('lets runtime depend on the workspace package and build its file store', () => {
    const root = fixture({
      'packages/runtime/package.json': JSON.stringify({
        name: '@tiny-claw/runtime',
        dependencies: { '@tiny-claw/core': 'workspace:^', '@tiny-claw/workspace': 'workspace:^' },
      }),
      'packages/runtime/src/app.ts':
        "import { createAgent } from '@tiny-claw/core';\nimport { createFileStore } from '@tiny-claw/workspace';\n",
    });
    expect(checkDependencyLaw(root)).toEqual([]);
  });

  it('rule 1: fails when core depends on another third-party package', () => {
    const root = fixture({
      'packages/core/package.json': JSON.stringify({
        name: '@tiny-claw/core',
        dependencies: { 'js-yaml': '^4' },
      }),
      'packages/core/src/frontmatter.ts': "import { load } from 'js-yaml';\n",
    });
    expect(checkDependencyLaw(root)).toEqual([
      expect.objectContaining({ rule: 1, message: 'core must not depend on js-yaml' }),
      expect.objectContaining({ rule: 1, message: 'core must not import js-yaml' }),
    ]);
  });

  it('rule 1: fails when core imports a vendor SDK', () => {
    const root = fixture({ 'packages/core/src/llm.ts': "import OpenAI from 'openai';\n" });
    expect(checkDependencyLaw(root)).toEqual([
      expect.objectContaining({
        rule: 1,
        where: 'packages/core/src/llm.ts',
        message: 'core must not import openai',
      }),
    ]);
  });

  it('rule 1: fails when core lazily imports another workspace package', () => {
    const root = fixture({
      'packages/core/src/lazy.ts': "export const t = () => import('@tiny-claw/tools');\n",
    });
    expect(checkDependencyLaw(root).map((v) => v.rule)).toEqual([1]);
  });

  it('rule 1: fails when core declares a dependency on a sibling package', () => {
    const root = fixture({
      'packages/core/package.json': JSON.stringify({
        name: '@tiny-claw/core',
        dependencies: { '@tiny-claw/tools': 'workspace:^' },
      }),
    });
    expect(checkDependencyLaw(root)).toEqual([expect.objectContaining({ rule: 1 })]);
  });

  it('rule 1: fails when core imports a built-in without the node: protocol', () => {
    const root = fixture({ 'packages/core/src/fs.ts': "import { stat } from 'fs';\n" });
    expect(checkDependencyLaw(root).map((v) => v.rule)).toEqual([1]);
  });

  it('rule 2: fails when a vendor SDK is a runtime dependency outside its owner', () => {
    const root = fixture({
      'packages/tools/package.json': JSON.stringify({
        name: '@tiny-claw/tools',
        dependencies: { '@tiny-claw/core': 'workspace:^', '@anthropic-ai/sdk': '^1' },
      }),
    });
    expect(checkDependencyLaw(root)).toEqual([
      expect.objectContaining({ rule: 2, message: expect.stringContaining('@anthropic-ai/sdk') }),
    ]);
  });

  it.each([
    ['the runtime depending on pg', 'packages/runtime', '@tiny-claw/runtime', { pg: '^8' }, 1],
    [
      'the store package depending on pg',
      'packages/store-postgres',
      '@tiny-claw/store-postgres',
      { pg: '^8' },
      0,
    ],
    [
      'the runtime depending on the store package',
      'packages/runtime',
      '@tiny-claw/runtime',
      { '@tiny-claw/store-postgres': 'workspace:^' },
      0,
    ],
  ])(
    'rule 2: the PostgreSQL client belongs to the store package only: %s',
    (_case, dir, name, deps, violations) => {
      const root = fixture({
        [`${dir}/package.json`]: JSON.stringify({
          name,
          dependencies: { '@tiny-claw/core': 'workspace:^', ...deps },
        }),
      });
      const found = checkDependencyLaw(root);
      expect(found).toHaveLength(violations);
      for (const violation of found)
        expect(violation).toMatchObject({ rule: 2, message: expect.stringContaining('pg') });
    },
  );

  it('rule 2: allows a vendor SDK as a devDependency used only by tests elsewhere', () => {
    const root = fixture({
      'packages/tools/package.json': JSON.stringify({
        name: '@tiny-claw/tools',
        dependencies: { '@tiny-claw/core': 'workspace:^' },
        devDependencies: { openai: '^6' },
      }),
      'packages/tools/src/wire.test.ts': "import OpenAI from 'openai';\n",
    });
    expect(checkDependencyLaw(root)).toEqual([]);
  });

  it('rule 2: fails when non-test source imports a vendor SDK it does not own', () => {
    const root = fixture({ 'packages/tools/src/net.ts': "import { Hono } from 'hono';\n" });
    expect(checkDependencyLaw(root)).toEqual([
      expect.objectContaining({ rule: 2, where: 'packages/tools/src/net.ts' }),
    ]);
  });

  it('rule 3: fails when a package imports from apps/', () => {
    const root = fixture({
      'packages/tools/src/bad.ts': "import { main } from '../../../apps/cli/src/main.js';\n",
    });
    expect(checkDependencyLaw(root)).toEqual([expect.objectContaining({ rule: 3 })]);
  });

  it('rule 3: fails when a package depends on an app', () => {
    const root = fixture({
      'packages/tools/package.json': JSON.stringify({
        name: '@tiny-claw/tools',
        dependencies: { '@tiny-claw/core': 'workspace:^', 'tiny-claw': 'workspace:*' },
      }),
    });
    expect(checkDependencyLaw(root).map((v) => v.rule)).toEqual([3]);
  });

  it('fails when a workspace package is imported without being declared', () => {
    const root = fixture({
      'packages/tools/src/x.ts': "import type { Foo } from '@tiny-claw/providers-openai';\n",
    });
    expect(checkDependencyLaw(root)).toEqual([expect.objectContaining({ rule: 4 })]);
  });
});

describe('importSpecifiers', () => {
  it('finds static, type-only, re-export, dynamic and require forms', () => {
    const source = [
      "import a from 'a';",
      "import type { B } from 'b';",
      "import {\n  c,\n} from 'c';",
      "export * from './d.js';",
      "export { e } from 'e';",
      "const f = await import('f');",
      "const g = require('g');",
      "import 'h';",
      'const text = \'not an import from "x"\';',
    ].join('\n');
    expect(importSpecifiers(source)).toEqual(['a', 'b', 'c', './d.js', 'e', 'f', 'g', 'h']);
  });
});
