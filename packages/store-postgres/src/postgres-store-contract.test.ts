import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StartedPostgres, startPostgres } from '@tiny-claw/testkit/postgres';
import { stateStoreContract } from '@tiny-claw/testkit/state-store';
import { afterAll, beforeAll } from 'vitest';
import { createPostgresStore } from './postgres-store.js';

// One cluster for the file; each test gets a schema of its own, so tests never see each other.
let postgres: StartedPostgres;
let traceDir: string;
let schemas = 0;
beforeAll(async () => {
  postgres = await startPostgres();
  traceDir = await mkdtemp(join(tmpdir(), 'tiny-claw-pg-traces-'));
});
afterAll(async () => {
  await postgres?.stop();
  if (traceDir) await rm(traceDir, { recursive: true, force: true });
});

stateStoreContract('createPostgresStore', (clock) => {
  schemas += 1;
  const store = createPostgresStore({ url: postgres.url, schema: `contract_${schemas}`, clock });
  return {
    store,
    // Where the tracing package's file recorder writes a trace; the store copies it in.
    async writeTrace(sessionKey, traceId) {
      const dir = join(traceDir, `s${schemas}`, sessionKey);
      await mkdir(dir, { recursive: true });
      const path = join(dir, `${traceId}.json`);
      await writeFile(path, JSON.stringify({ schemaVersion: 1, traceId }));
      return path;
    },
  };
});
