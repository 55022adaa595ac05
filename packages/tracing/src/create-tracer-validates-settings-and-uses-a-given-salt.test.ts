import { readdir } from 'node:fs/promises';
import { ConfigurationError } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempStateDir } from './__fixtures__/scripted-run.js';
import { keyedHash } from './capture/keyed-hash.js';
import { createSpanTracer, createTracer } from './create-tracer.js';
import type { TraceTree } from './trace-schema.js';

let state: Awaited<ReturnType<typeof tempStateDir>>;
beforeEach(async () => {
  state = await tempStateDir();
});
afterEach(async () => {
  await state.cleanup();
});

describe('createTracer', () => {
  it('refuses a max payload size that is not a positive integer', () => {
    for (const maxPayloadChars of [0, -1, 1.5, Number.NaN]) {
      expect(() => createTracer({ stateDir: state.dir, mode: 'replay', maxPayloadChars })).toThrow(
        ConfigurationError,
      );
    }
  });

  it('touches no disk until a run needs it', async () => {
    createTracer({ stateDir: state.dir, mode: 'metadata' });
    expect(await readdir(state.dir)).toEqual([]);
  });

  it('hashes with a given salt instead of the install salt file', async () => {
    const trees: TraceTree[] = [];
    const tracer = createSpanTracer({
      stateDir: state.dir,
      mode: 'metadata',
      salt: 'fixed-salt',
      recorders: [{ record: async (tree) => void trees.push(tree) }],
    });
    const run = tracer.startRun('main', {}, { sessionKey: 'cli-000000000000-s', runId: 'r1' });
    run.recordPayload('prompt', 'hello');
    await tracer.finishRun(run, 'ok');
    expect(trees[0]?.root.attributes.prompt_hash).toBe(
      keyedHash(Buffer.from('fixed-salt'), 'hello'),
    );
    expect(await readdir(state.dir)).toEqual([]);
  });
});
