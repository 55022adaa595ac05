import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClaimTicket, ConfigurationError, StateError } from '@tiny-claw/core';
import { type StartedPostgres, startPostgres } from '@tiny-claw/testkit/postgres';
import { ContractClock, pendingApproval } from '@tiny-claw/testkit/state-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from './migrations.js';
import { createPostgresStore, type PostgresStore } from './postgres-store.js';

// One cluster for the file. "Processes" are separate stores: each has its own pool, so its own
// database sessions, exactly as two processes would.
let postgres: StartedPostgres;
let dir: string;
let schemas = 0;
const open: PostgresStore[] = [];
beforeAll(async () => {
  postgres = await startPostgres();
  dir = await mkdtemp(join(tmpdir(), 'tiny-claw-pg-store-'));
});
afterAll(async () => {
  await Promise.all(open.map((store) => store.close().catch(() => {})));
  await postgres?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** `count` stores sharing one fresh schema, as that many processes would. */
function processes(count: number, options: { clock?: () => Date; migrate?: boolean } = {}) {
  schemas += 1;
  const schema = `store_${schemas}`;
  return Array.from({ length: count }, () => {
    const store = createPostgresStore({ url: postgres.url, schema, ...options });
    open.push(store);
    return store;
  });
}

const ticket = (actor: string): ClaimTicket => ({
  pid: 4242,
  host: 'replica',
  at: '2026-01-01T00:10:00.000Z',
  actor,
  decision: 'approve',
});

describe('createPostgresStore options', () => {
  it.each([
    [
      { url: 'mysql://db/claw' },
      'url "mysql://db/claw": expected a postgres:// or postgresql:// URL',
    ],
    [{ url: 'http://u:secret@db/claw' }, 'url "http://u:***@db/claw"'],
    [
      { url: 'postgres://db/claw', poolSize: 1 },
      'poolSize: expected a whole number from 2 to 1000',
    ],
    [{ url: 'postgres://db/claw', poolSize: 2.5 }, 'poolSize: expected a whole number'],
    [{ url: 'postgres://db/claw', schema: 'Bad-Name' }, 'schema: expected 1 to 63 lower-case'],
    [{ url: 'postgres://db/claw', schema: 'x; DROP TABLE y' }, 'schema: expected'],
  ])('refuses %j with a ConfigurationError naming the option', (options, message) => {
    const attempt = () => createPostgresStore(options);
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(message);
    expect(attempt).not.toThrow('secret');
  });

  it.each([
    'postgres://db/claw',
    'postgresql://u:p@db:5433/claw?sslmode=require',
    ' POSTGRES://db ',
  ])('accepts %j without connecting, and closes once however often asked', async (url) => {
    const store = createPostgresStore({ url });
    expect(store.shownUrl).not.toContain(':p@');
    await store.close();
    await store.close(); // a second close changes nothing
  });
});

describe('schema migrations', () => {
  it('applies each migration once when several processes start together, and records the version', async () => {
    const stores = processes(4);
    const results = await Promise.all(stores.map((store) => store.migrate()));
    expect(results.map((r) => r.version)).toEqual([1, 1, 1, 1].map(() => SCHEMA_VERSION));
    expect(results.flatMap((r) => r.applied).sort()).toEqual([SCHEMA_VERSION]);
    expect(await stores[0]?.schemaVersion()).toBe(SCHEMA_VERSION);
  });

  it('migrates on first use unless told not to; then it refuses an old schema and says how to migrate', async () => {
    const [manual] = processes(1, { migrate: false });
    expect(await manual?.schemaVersion()).toBe(0);
    const refusal = await manual?.seen
      .remember('event:e1', 60_000)
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StateError);
    expect((refusal as Error).message).toContain('tiny-claw state migrate');
    expect((await manual?.migrate())?.applied).toEqual([SCHEMA_VERSION]);
    expect(await manual?.seen.remember('event:e1', 60_000)).toBe(true);
  });
});

describe('exactly once across processes', () => {
  it('grants the claim on an approval to exactly one of two processes deciding it', async () => {
    const [a, b] = processes(2);
    for (let round = 0; round < 5; round += 1) {
      const again = pendingApproval();
      await a?.approvals.create(again);
      const results = await Promise.all([
        a?.approvals.claim(again.sessionKey, again.id, ticket('a')),
        b?.approvals.claim(again.sessionKey, again.id, ticket('b')),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results[0] ? 'a' : 'b';
      expect((await b?.approvals.ticket(again.sessionKey, again.id))?.actor).toBe(winner);
    }
  });

  it('lets one process of many win a seen key, and a key expires by the stores’ clock', async () => {
    const clock = new ContractClock();
    const stores = processes(3, { clock: clock.now });
    const answers = await Promise.all(
      stores.flatMap((store) => [1, 2, 3].map(() => store.seen.remember('message:m1', 60_000))),
    );
    expect(answers.filter(Boolean)).toHaveLength(1);
    clock.advance(60_000);
    expect(await stores[2]?.seen.remember('message:m1', 60_000)).toBe(true);
    expect(await stores[0]?.seen.remember('message:m1', 60_000)).toBe(false);
  });

  it("takes over a crashed holder's lease once it expires, and never before", async () => {
    const clock = new ContractClock();
    const [crashed, survivor] = processes(2, { clock: clock.now });
    const lease = await crashed?.leases.acquire('chat:oc_1', 'replica-a', 30_000);
    expect(lease?.holder).toBe('replica-a');
    await crashed?.close(); // gone without releasing
    expect(await survivor?.leases.acquire('chat:oc_1', 'replica-b', 30_000)).toBeUndefined();
    clock.advance(30_000);
    const taken = await survivor?.leases.acquire('chat:oc_1', 'replica-b', 30_000);
    expect(taken?.holder).toBe('replica-b');
    expect(await survivor?.leases.acquire('chat:oc_1', 'replica-c', 30_000)).toBeUndefined();
  });
});

describe('plans across processes', () => {
  it('loses no change when several processes change one plan at the same moment', async () => {
    const stores = processes(4);
    const session = { key: 'cli-1a2b3c4d5e6f-default' };
    const ids = Array.from({ length: 16 }, (_, i) => `TC-${String(i + 1).padStart(3, '0')}`);
    await stores[0]?.plans(session).createMissing({
      plan: '# PLAN.md\n',
      todo: ids.map((id) => `- [ ] ${id} step`).join('\n'),
    });
    // Each process checks off its quarter of the items, all at once.
    await Promise.all(
      ids.map((id, i) => (stores[i % 4] as PostgresStore).plans(session).markDone(id)),
    );
    const plan = await stores[1]?.plans(session).read();
    expect(plan?.items.filter((item) => item.done).map((item) => item.id)).toEqual(ids);
  });
});

describe('traces', () => {
  it('keeps the trace itself, readable by another process after the file is gone', async () => {
    const [writer, reader] = processes(2);
    const path = join(dir, 'trace-1.json');
    const trace = { schemaVersion: 1, traceId: 'trace-1', root: { name: 'agent.run' } };
    await writeFile(path, JSON.stringify(trace));
    const sessionKey = 'cli-1a2b3c4d5e6f-default';
    await writer?.traces.record({ traceId: 'trace-1', sessionKey, path });
    await rm(path);
    expect(await reader?.traces.read('trace-1')).toEqual(trace);
    expect(await reader?.traces.locate('trace-1')).toEqual({
      traceId: 'trace-1',
      sessionKey,
      path,
    });
    expect(await reader?.traces.read('trace-2')).toBeUndefined();
  });

  it.each([
    ['a missing file', async () => join(dir, 'missing.json'), 'it cannot be read'],
    ['a folder', async () => dir, 'it is not a file'],
    ['a relative path', async () => 'traces/t.json', 'its path is not absolute'],
    [
      'a file that is not JSON',
      async () => {
        await writeFile(join(dir, 'broken.json'), '{"half');
        return join(dir, 'broken.json');
      },
      'it is not JSON',
    ],
  ])('refuses to record %s, saying why', async (_what, makePath, why) => {
    const [store] = processes(1);
    const path = await makePath();
    const error = await store?.traces
      .record({ traceId: 't', sessionKey: 'cli-1a2b3c4d5e6f-default', path })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateError);
    expect((error as Error).message).toContain(why);
    expect(await store?.traces.list()).toEqual([]);
  });
});

describe('failures of the database', () => {
  it('reports an unreachable server as a StateError naming it with the password masked', async () => {
    const url = 'postgres://claw:hunter2@127.0.0.1:1/claw';
    const store = createPostgresStore({ url });
    const error = await store.seen.remember('event:e1', 1000).catch((caught: unknown) => caught);
    await store.close();
    expect(error).toBeInstanceOf(StateError);
    expect((error as Error).message).toContain('postgres://claw:***@127.0.0.1:1/claw');
    expect((error as Error).message).toContain('Check that the server is running');
    expect((error as Error).message).not.toContain('hunter2');
  });
});
