import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateError } from '@tiny-claw/core';
import { testSession } from '@tiny-claw/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTraceIndex } from './file-trace-index.js';

const key = testSession('/repo', 'default').key;
let stateDir: string;
let traces: string;

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-traces-'));
  traces = join(stateDir, 'sessions', key, 'traces');
  await mkdir(traces, { recursive: true });
});
afterEach(() => rm(stateDir, { recursive: true, force: true }));

describe('the trace index of a state dir', () => {
  it('finds traces written before the index existed, by scanning sessions/*/traces/*.json', async () => {
    await writeFile(join(traces, 'abc.json'), '{}\n');
    const index = new FileTraceIndex(stateDir);
    expect(await index.locate('abc')).toEqual({
      traceId: 'abc',
      sessionKey: key,
      path: join(traces, 'abc.json'),
    });
    expect(await index.list()).toHaveLength(1);
  });

  it('skips what is not a trace: other names, directories, folders that are not sessions', async () => {
    await writeFile(join(traces, 'abc.json'), '{}\n');
    await writeFile(join(traces, 'notes.txt'), '');
    await writeFile(join(traces, 'bad name.json'), '');
    await mkdir(join(traces, 'dir.json'));
    await mkdir(join(stateDir, 'sessions', 'Not A Key', 'traces'), { recursive: true });
    await writeFile(join(stateDir, 'sessions', 'Not A Key', 'traces', 'x.json'), '{}');
    expect((await new FileTraceIndex(stateDir).list()).map((entry) => entry.traceId)).toEqual([
      'abc',
    ]);
  });

  it('lists nothing for a state dir without sessions', async () => {
    const index = new FileTraceIndex(join(stateDir, 'fresh'));
    expect(await index.list()).toEqual([]);
    expect(await index.locate('abc')).toBeUndefined();
  });

  it('refuses to record a trace that is not where it finds traces, and writes nothing', async () => {
    const index = new FileTraceIndex(stateDir);
    const elsewhere = join(stateDir, 'elsewhere.json');
    await writeFile(elsewhere, '{}\n');
    await expect(
      index.record({ traceId: 'abc', sessionKey: key, path: elsewhere }),
    ).rejects.toThrow(StateError);
    await expect(
      index.record({ traceId: 'abc', sessionKey: key, path: join(traces, 'abc.json') }),
    ).rejects.toThrow(/write it there first/);
    expect(await index.list()).toEqual([]);
  });
});
