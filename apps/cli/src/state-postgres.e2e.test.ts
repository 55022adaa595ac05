import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type StartedPostgres, startPostgres } from '@tiny-claw/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalWorld, createApprovalWorld } from './__fixtures__/approval-cli.js';

// One throwaway cluster for the file; every CLI process of the world points at it.
let postgres: StartedPostgres;
let world: ApprovalWorld;
let url: string;

beforeAll(async () => {
  postgres = await startPostgres();
  // The cluster trusts loopback logins, so any password is accepted: it shows the masking.
  url = postgres.url.replace('postgres@', 'postgres:hunter2@');
  world = await createApprovalWorld({ 'a.txt': 'alpha\n' });
});
afterAll(async () => {
  await world?.cleanup();
  await postgres?.stop();
});

const pg = () => ({ TINY_CLAW_STATE_URL: url });

describe('tiny-claw state migrate', () => {
  it('applies the schema, prints its version, and finds it up to date the second time', async () => {
    const first = await world.cli(['state', 'migrate'], pg());
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/to schema version 1 \(applied 1\)/);
    expect(first.stdout).not.toContain('hunter2');
    const again = await world.cli(['state', 'migrate'], pg());
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('up to date: schema version 1');
  });

  it.each([
    ['unset', {}, 'TINY_CLAW_STATE_URL is not set'],
    [
      'not a PostgreSQL URL',
      { TINY_CLAW_STATE_URL: 'mysql://db/claw' },
      'TINY_CLAW_STATE_URL="mysql://db/claw" is invalid: expected a postgres://',
    ],
    [
      'unreachable',
      { TINY_CLAW_STATE_URL: 'postgres://claw:hunter2@127.0.0.1:1/claw' },
      'Cannot migrate the state store at TINY_CLAW_STATE_URL',
    ],
  ])(
    'exits 78 with a message naming the setting when the URL is %s',
    async (_case, env, message) => {
      const result = await world.cli(['state', 'migrate'], env);
      expect(result.code).toBe(78);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toContain('hunter2');
      expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    },
  );
});

describe('tiny-claw health shows the state backend', () => {
  it.each([
    ['files, by default', () => ({}), () => `state=files ${world.stateDir}`, 'state_reachable=yes'],
    [
      'postgres, with the password masked',
      pg,
      () => `state=postgres ${postgres.url.replace('postgres@', 'postgres:***@')}`,
      'state_reachable=yes (schema version',
    ],
    [
      'postgres that cannot be reached',
      () => ({ TINY_CLAW_STATE_URL: 'postgres://claw:hunter2@127.0.0.1:1/claw' }),
      () => 'state=postgres postgres://claw:***@127.0.0.1:1/claw',
      'state_reachable=no: PostgreSQL state store',
    ],
  ])('as %s', async (_case, env, where, reach) => {
    const text = await world.cli(['health'], env());
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(where());
    expect(text.stdout).toContain(reach);
    expect(text.stdout).not.toContain('hunter2');
    const json = await world.cli(['health', '--json'], env());
    const report = JSON.parse(json.stdout) as { state: Record<string, unknown> };
    expect(report.state.reachable).toBe(!reach.includes('=no'));
    expect(JSON.stringify(report.state)).toContain(where().split(' ')[1] ?? '');
  });
});

describe('with TINY_CLAW_STATE_URL, approvals live in PostgreSQL', () => {
  it('runs an approved call exactly once when two processes approve it at the same moment', async () => {
    for (let round = 0; round < 3; round += 1) {
      const command = `chmod 644 a.txt && echo ran >> round-${round}.log`;
      const { result } = await world.run(
        [{ tool_calls: [{ name: 'bash', arguments: { command } }] }],
        [],
        pg(),
      );
      expect(result.stopReason).toBe('approval_required');
      const id = result.approvalId as string;
      // Nothing of the request is written under the state dir.
      expect(existsSync(join(world.stateDir, 'sessions', result.sessionKey, 'approvals'))).toBe(
        false,
      );
      const outcomes = await Promise.all([
        world.decide(['approve', id], undefined, pg()),
        world.decide(['approve', id], undefined, pg()),
      ]);
      const codes = outcomes.map((o) => o.code).sort();
      expect(codes, outcomes.map((o) => o.stderr).join('\n---\n')).toEqual([0, 1]);
      expect(outcomes.find((o) => o.code === 1)?.stderr).toMatch(/already (handled|used)/);
      expect(await readFile(world.ws.path(`round-${round}.log`), 'utf8')).toBe('ran\n');
    }
  }, 120_000);
});

describe('with TINY_CLAW_STATE_URL, traces live in PostgreSQL too', () => {
  it('shows, by id, a trace another process recorded, which this state dir has no file of', async () => {
    const { result } = await world.run([{ text: 'traced' }], [], pg());
    const traceId = result.traceId as string;
    const elsewhere = { ...pg(), TINY_CLAW_STATE_DIR: world.outside.path('other-replica') };
    const shown = await world.cli(['trace', 'show', traceId, '--json'], elsewhere);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ trace_id: traceId });
    // Without the URL that process has no such trace.
    const { TINY_CLAW_STATE_DIR } = elsewhere;
    const missing = await world.cli(['trace', 'show', traceId], { TINY_CLAW_STATE_DIR });
    expect(missing.code).toBe(1);
  });

  it('lists the traces another process recorded, and show last finds the newest of them', async () => {
    const { result } = await world.run([{ text: 'listed elsewhere' }], [], pg());
    const traceId = result.traceId as string;
    const elsewhere = { ...pg(), TINY_CLAW_STATE_DIR: world.outside.path('replica-b') };
    const listed = await world.cli(['trace', 'list', '--json'], elsewhere);
    expect(listed.code, listed.stderr).toBe(0);
    const traces = JSON.parse(listed.stdout) as Array<{ traceId: string; sessionKey: string }>;
    expect(traces.map((trace) => trace.traceId)).toContain(traceId);
    expect(traces.find((trace) => trace.traceId === traceId)?.sessionKey).toBe(result.sessionKey);
    const last = await world.cli(['trace', 'show', 'last', '--json'], elsewhere);
    expect(last.code, last.stderr).toBe(0);
    expect(JSON.parse(last.stdout)).toMatchObject({ trace_id: traceId });
    // The process that recorded it lists it once, from its own file.
    const own = await world.cli(['trace', 'list', '--json'], pg());
    const ids = (JSON.parse(own.stdout) as Array<{ traceId: string }>).map((t) => t.traceId);
    expect(ids.filter((id) => id === traceId)).toHaveLength(1);
  });
});
