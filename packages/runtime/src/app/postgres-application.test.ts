import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PostgresStore } from '@tiny-claw/store-postgres';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { type StartedPostgres, startPostgres } from '@tiny-claw/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../settings/load-settings.js';
import { createApplication } from './create-application.js';

// One throwaway cluster for the file; two applications on it stand for two processes.
let postgres: StartedPostgres;
let ws: TempWorkspace;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

beforeAll(async () => {
  postgres = await startPostgres();
  ws = await createTempWorkspace({});
});
afterAll(async () => {
  await ws?.cleanup();
  await postgres?.stop();
});

const application = (stateDir: string) =>
  createApplication(
    loadSettings({
      env: {
        TINY_CLAW_STATE_DIR: ws.path(stateDir),
        TINY_CLAW_WORKDIR: ws.dir,
        TINY_CLAW_STATE_URL: postgres.url,
        TINY_CLAW_STATE_POOL_SIZE: '3',
      },
      cwd: ws.dir,
      homeDir: ws.dir,
    }),
    { logger: silent },
  );

describe('an application with TINY_CLAW_STATE_URL', () => {
  it("keeps a run's memory and its trace in PostgreSQL, where another process finds them", async () => {
    const first = await application('state-a');
    const second = await application('state-b');
    try {
      const result = await first.run({ prompt: 'hello', session: 'shared' });
      expect(result.traceId).toBeDefined();
      const store = second.agent.store as PostgresStore;
      const session = await second.agent.session('shared');
      expect(await store.memory(session).readRecent(2)).toEqual([
        'last_prompt: hello',
        'last_response: hello',
      ]);
      const traceId = result.traceId as string;
      expect(await store.traces.locate(traceId)).toMatchObject({
        traceId,
        sessionKey: session.key,
      });
      expect(await store.traces.read(traceId)).toMatchObject({
        trace_id: traceId,
        root: { attributes: { session_key: session.key } },
      });
      // Nothing of the session's state was written as files: no memory file, no session record.
      expect(existsSync(join(ws.path('state-a'), 'sessions', session.key, 'memory.jsonl'))).toBe(
        false,
      );
      expect(await second.checkState()).toMatchObject({ backend: 'postgres', reachable: true });
    } finally {
      await first.close();
      await second.close();
    }
  });
});
