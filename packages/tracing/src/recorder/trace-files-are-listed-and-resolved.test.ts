import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempStateDir } from '../__fixtures__/scripted-run.js';
import { TRACE_SCHEMA_VERSION, type TraceTree } from '../trace-schema.js';
import { listTraces, readTrace, resolveTraceRef } from './trace-reader.js';
import { FileTraceRecorder } from './trace-recorder.js';

let state: Awaited<ReturnType<typeof tempStateDir>>;
beforeEach(async () => {
  state = await tempStateDir();
});
afterEach(async () => {
  await state.cleanup();
});

function tree(
  key: string,
  id: string,
  startedAt: string,
  status: 'ok' | 'error' = 'ok',
): TraceTree {
  return {
    schema_version: TRACE_SCHEMA_VERSION,
    trace_id: id,
    session: { key, source: 'cli' },
    capture_mode: 'metadata',
    root: {
      span_id: '0123456789abcdef',
      parent_id: null,
      kind: 'agent.run',
      name: 'main',
      started_at: startedAt,
      ended_at: startedAt,
      status,
      attributes: { stop_reason: 'final', steps: 1 },
      events: [],
      children: [],
    },
  };
}

const A = 'cli-000000000000-a';
const B = 'cli-000000000000-b';

async function seed(): Promise<void> {
  const recorder = new FileTraceRecorder(state.dir);
  await recorder.record(tree(A, 'aaa111', '2026-01-01T00:00:01.000Z'));
  await recorder.record(tree(B, 'bbb222', '2026-01-01T00:00:03.000Z', 'error'));
  await recorder.record(tree(A, 'aaa333', '2026-01-01T00:00:02.000Z'));
}

describe('trace files', () => {
  it('round-trip through FileTraceRecorder and readTrace', async () => {
    const written = tree(A, 'abc', '2026-01-01T00:00:00.000Z');
    const { tracePath } = await new FileTraceRecorder(state.dir).record(written);
    expect(tracePath).toBe(join(state.dir, 'sessions', A, 'traces', 'abc.json'));
    expect(await readTrace(tracePath)).toEqual(written);
  });

  it('refuses a session key or trace id that would escape the traces directory', async () => {
    const recorder = new FileTraceRecorder(state.dir);
    await expect(recorder.record(tree('../../x', 'abc', 'now'))).rejects.toThrow(/session key/);
    await expect(recorder.record(tree(A, '../abc', 'now'))).rejects.toThrow(/trace id/);
  });

  it('readTrace names the file and the problem when it is not a v1 trace', async () => {
    const path = join(state.dir, 'bad.json');
    await writeFile(path, JSON.stringify({ schema_version: 2 }));
    await expect(readTrace(path)).rejects.toThrow(/bad\.json is not a schema v1 trace/);
    await writeFile(path, '{');
    await expect(readTrace(path)).rejects.toThrow(/bad\.json is not valid JSON/);
  });

  it.each([
    ['invalid JSON', '\x1b]0;pwned\x07{"broken'],
    ['an unknown key', JSON.stringify({ schema_version: 1, '\x1b]0;pwned\x07': 1 })],
    ['a wrong version', JSON.stringify({ schema_version: '\x1b[2J\u202e' })],
  ])(
    'readTrace quotes a trace with %s escaped, never with its escape sequences',
    async (_what, text) => {
      const path = join(state.dir, 'bad.json');
      await writeFile(path, text);
      const error = await readTrace(path).catch((caught: Error) => caught);
      expect(error).toBeInstanceOf(Error);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters.
      expect((error as Error).message).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202e]/);
    },
  );

  it('listTraces lists every session newest first with status and root attributes', async () => {
    await seed();
    const all = await listTraces(state.dir);
    expect(all.map((t) => [t.sessionKey, t.traceId, t.status])).toEqual([
      [B, 'bbb222', 'error'],
      [A, 'aaa333', 'ok'],
      [A, 'aaa111', 'ok'],
    ]);
    expect(all[0]?.attributes).toEqual({ stop_reason: 'final', steps: 1 });
    expect((await listTraces(state.dir, { sessionKey: A })).map((t) => t.traceId)).toEqual([
      'aaa333',
      'aaa111',
    ]);
  });

  it('listTraces skips unreadable files and reports them', async () => {
    await seed();
    const dir = join(state.dir, 'sessions', A, 'traces');
    await writeFile(join(dir, 'broken.json'), 'nope');
    const skipped: string[] = [];
    const all = await listTraces(state.dir, { onSkip: (path) => skipped.push(path) });
    expect(all).toHaveLength(3);
    expect(skipped).toEqual([join(dir, 'broken.json')]);
  });

  it('listTraces of an empty state dir is empty', async () => {
    expect(await listTraces(join(state.dir, 'missing'))).toEqual([]);
    await mkdir(join(state.dir, 'sessions', 'not a key'), { recursive: true });
    expect(await listTraces(state.dir)).toEqual([]);
  });

  it('resolveTraceRef finds last of all sessions, last of one session, an id and a prefix', async () => {
    await seed();
    expect(await resolveTraceRef(state.dir, 'last')).toMatchObject({
      sessionKey: B,
      traceId: 'bbb222',
    });
    expect(await resolveTraceRef(state.dir, 'last', { sessionKey: A })).toMatchObject({
      traceId: 'aaa333',
    });
    expect(await resolveTraceRef(state.dir, 'aaa111')).toMatchObject({
      sessionKey: A,
      path: join(state.dir, 'sessions', A, 'traces', 'aaa111.json'),
    });
    expect(await resolveTraceRef(state.dir, 'bbb')).toMatchObject({ traceId: 'bbb222' });
  });

  it('resolveTraceRef explains a missing, ambiguous or invalid reference', async () => {
    await seed();
    await expect(resolveTraceRef(state.dir, 'zzz')).rejects.toThrow(/No trace "zzz" found/);
    await expect(resolveTraceRef(state.dir, 'aaa')).rejects.toThrow(/ambiguous/);
    await expect(resolveTraceRef(state.dir, '../x')).rejects.toThrow(/Invalid trace id/);
    await expect(resolveTraceRef(join(state.dir, 'empty'), 'last')).rejects.toThrow(
      /No traces found/,
    );
    await expect(resolveTraceRef(state.dir, 'bbb222', { sessionKey: A })).rejects.toThrow(
      /in session/,
    );
  });
});
