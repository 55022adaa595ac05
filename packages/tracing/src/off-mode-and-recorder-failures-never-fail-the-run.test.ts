import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cliSession } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingLogger, scriptedRun, tempStateDir } from './__fixtures__/scripted-run.js';
import { createTracer } from './create-tracer.js';

let state: Awaited<ReturnType<typeof tempStateDir>>;
beforeEach(async () => {
  state = await tempStateDir();
});
afterEach(async () => {
  await state.cleanup();
});

describe('TINY_CLAW_TRACE_MODE=off', () => {
  it('follows no run and writes nothing at all', async () => {
    const tracer = createTracer({ stateDir: state.dir, mode: 'off' });
    const result = await scriptedRun(tracer, { stateDir: state.dir });
    expect(result.stopReason).toBe('final');
    expect(result.traceId).toBeUndefined();
    expect(result.tracePath).toBeUndefined();
    expect(await readdir(state.dir)).toEqual([]);
  });
});

describe('recorder failures', () => {
  it('an unwritable traces directory is warned about and the run still finishes', async () => {
    const sessionDir = join(state.dir, 'sessions', (await cliSession(state.dir)).key);
    await mkdir(sessionDir, { recursive: true });
    // A file where the directory should be: even root cannot create traces/<id>.json under it.
    await writeFile(join(sessionDir, 'traces'), 'not a directory');
    const logger = recordingLogger();
    const tracer = createTracer({ stateDir: state.dir, mode: 'metadata', logger });
    const result = await scriptedRun(tracer, { stateDir: state.dir, logger });
    expect(result.stopReason).toBe('final');
    expect(result.traceId).toBeUndefined();
    expect(result.tracePath).toBeUndefined();
    expect(logger.warnings.some((w) => w.startsWith('trace recorder failed:'))).toBe(true);
  });

  it('a recorder that throws does not stop the others, and its run finishes', async () => {
    const logger = recordingLogger();
    const seen: string[] = [];
    const tracer = createTracer({
      stateDir: state.dir,
      mode: 'metadata',
      logger,
      recorders: [
        {
          record: async () => {
            throw new Error('collector down');
          },
        },
        {
          record: async (tree) => {
            seen.push(tree.trace_id);
          },
        },
      ],
    });
    const result = await scriptedRun(tracer, { stateDir: state.dir, logger });
    expect(result.stopReason).toBe('final');
    expect(seen).toEqual([result.runId]);
    expect(logger.warnings).toContain('trace recorder failed: collector down');
  });

  it('a state dir where the salt cannot be created falls back to a temporary salt', async () => {
    const stateDir = join(state.dir, 'blocked');
    await writeFile(stateDir, 'a file, not a directory');
    const logger = recordingLogger();
    const tracer = createTracer({ stateDir, mode: 'metadata', logger });
    const result = await scriptedRun(tracer, { stateDir, workdir: state.dir, logger });
    expect(result.stopReason).toBe('final');
    expect(logger.warnings.some((w) => w.startsWith('trace salt unavailable'))).toBe(true);
    expect(logger.warnings.some((w) => w.startsWith('trace recorder failed:'))).toBe(true);
  });
});
