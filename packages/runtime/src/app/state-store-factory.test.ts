import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '@tiny-claw/core';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../settings/load-settings.js';
import { createApplication } from './create-application.js';
import { checkStateBackend, migrateStateStore } from './state-store-factory.js';

// Nothing listens on port 1: what the runtime does with a PostgreSQL URL it cannot reach. The
// store against a real database is tested in its own package and end to end in the CLI.
const UNREACHABLE = 'postgres://claw:hunter2@127.0.0.1:1/claw?sslmode=disable';
const SHOWN = 'postgres://claw:***@127.0.0.1:1/claw?sslmode=***';
const silent = { debug() {}, info() {}, warn() {}, error() {} };

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await createTempWorkspace({});
});
afterEach(() => ws.cleanup());

const settingsWith = (env: Record<string, string> = {}) =>
  loadSettings({
    env: { TINY_CLAW_STATE_DIR: ws.path('.state'), TINY_CLAW_WORKDIR: ws.dir, ...env },
    cwd: ws.dir,
    homeDir: ws.dir,
  });

describe('the state backend of the application', () => {
  it.each([
    ['files under the state dir when TINY_CLAW_STATE_URL is unset', {}, false],
    [
      'the PostgreSQL store when TINY_CLAW_STATE_URL is set',
      { TINY_CLAW_STATE_URL: UNREACHABLE },
      true,
    ],
  ])('is %s', async (_case, env, postgres) => {
    const app = await createApplication(settingsWith(env), { logger: silent });
    try {
      expect(app.health().state).toEqual(
        postgres
          ? { backend: 'postgres', url: SHOWN }
          : { backend: 'files', dir: ws.path('.state') },
      );
      // Only the PostgreSQL store keeps a schema version.
      expect(typeof (app.agent.store as { schemaVersion?: unknown }).schemaVersion).toBe(
        postgres ? 'function' : 'undefined',
      );
    } finally {
      await app.close();
    }
  });

  it('tells that PostgreSQL cannot be reached, why, and never the password', async () => {
    const state = await checkStateBackend(settingsWith({ TINY_CLAW_STATE_URL: UNREACHABLE }));
    expect(state).toMatchObject({ backend: 'postgres', url: SHOWN, reachable: false });
    expect(state.problem).toContain('ECONNREFUSED');
    expect(JSON.stringify(state)).not.toContain('hunter2');
    expect(await checkStateBackend(settingsWith())).toEqual({
      backend: 'files',
      dir: ws.path('.state'),
      reachable: true,
    });
  });

  it.each([
    ['unset', {}, 'TINY_CLAW_STATE_URL is not set'],
    [
      'unreachable',
      { TINY_CLAW_STATE_URL: UNREACHABLE },
      'Cannot migrate the state store at TINY_CLAW_STATE_URL',
    ],
  ])(
    'refuses to migrate when the URL is %s, as a configuration error',
    async (_case, env, message) => {
      const error = await migrateStateStore(settingsWith(env)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toContain(message);
      expect((error as Error).message).not.toContain('hunter2');
    },
  );

  it('imports the PostgreSQL store only when it is used: no module of the runtime imports it statically', async () => {
    const src = join(dirname(fileURLToPath(import.meta.url)), '..');
    const files = (await readdir(src, { recursive: true })).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    const staticImports: string[] = [];
    let dynamicImports = 0;
    for (const file of files) {
      const text = await readFile(join(src, file), 'utf8');
      const imports = text.matchAll(
        /\b(?:import|export)(\s+type)?\s*(?:\{[^}]*\}|\*\s+as\s+\w+|\w+)\s*from\s+['"]@tiny-claw\/store-postgres['"]/g,
      );
      // A type-only import is erased from the built code: it loads nothing.
      if ([...imports].some((match) => match[1] === undefined)) staticImports.push(file);
      dynamicImports += text.match(/import\('@tiny-claw\/store-postgres'\)/g)?.length ?? 0;
    }
    expect(staticImports).toEqual([]);
    expect(dynamicImports).toBeGreaterThan(0);
  });
});
