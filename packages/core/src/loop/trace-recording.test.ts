import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { Logger } from '../observe/logger.js';
import type { Tracer } from '../observe/tracer.js';
import { createMemoryStore } from '../store/memory-state-store.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';

/** A tracer that says it wrote each run's trace to `<where>/<runId>.json`. */
const writingTracer = (where: string | undefined): Tracer => ({
  onEvent: () => {},
  finishRun: async (runId) => ({
    traceId: runId,
    ...(where === undefined ? {} : { tracePath: `${where}/${runId}.json` }),
  }),
});

describe('a run and the trace index', () => {
  it('records where its tracer wrote the trace in the store, under the run’s session', async () => {
    const store = createMemoryStore();
    const agent = createAgent({
      provider: new ScriptedProvider({ turns: [{ text: 'ok' }] }),
      workdir: tmpdir(),
      store,
      tracer: writingTracer('/traces'),
    });
    const result = await agent.run('go');
    expect(await store.traces.locate(result.traceId as string)).toEqual({
      traceId: result.traceId,
      sessionKey: result.sessionKey,
      path: result.tracePath,
    });
  });

  it('records nothing when the tracer wrote no place (an exporter)', async () => {
    const store = createMemoryStore();
    const agent = createAgent({
      provider: new ScriptedProvider({ turns: [{ text: 'ok' }] }),
      workdir: tmpdir(),
      store,
      tracer: writingTracer(undefined),
    });
    await agent.run('go');
    expect(await store.traces.list()).toEqual([]);
  });

  it('warns when the trace cannot be indexed, and the run still ends as it would', async () => {
    const warnings: string[] = [];
    const logger: Logger = {
      debug: () => {},
      info: () => {},
      warn: (message) => void warnings.push(message),
      error: () => {},
    };
    const base = createMemoryStore();
    const store = {
      ...base,
      traces: {
        ...base.traces,
        record: async () => {
          throw new Error('index offline');
        },
      },
    };
    const agent = createAgent({
      provider: new ScriptedProvider({ turns: [{ text: 'ok' }] }),
      workdir: tmpdir(),
      store,
      tracer: writingTracer('/traces'),
      logger,
    });
    const result = await agent.run('go');
    expect(result).toMatchObject({ stopReason: 'final', text: 'ok' });
    expect(warnings).toContain('trace could not be indexed: index offline');
  });
});
