import type * as FsPromises from 'node:fs/promises';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateError } from '@tiny-claw/core';
import { checkpointOf, pendingApproval } from '@tiny-claw/testkit/state-store';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileCheckpointStore } from './file-checkpoint-store.js';

// A full disk is simulated: a real one would need a small filesystem mounted for the test.
const failure = vi.hoisted(() => ({ full: false }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof FsPromises>();
  return {
    ...actual,
    open: async (...args: Parameters<typeof actual.open>) => {
      const handle = await actual.open(...args);
      if (failure.full && String(args[0]).includes('.tmp-')) {
        handle.writeFile = async (data: unknown) => {
          await actual.appendFile(String(args[0]), String(data).slice(0, 10));
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        };
      }
      return handle;
    },
  };
});

let stateDir: string;

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-checkpoint-full-'));
});

afterEach(async () => {
  failure.full = false;
  await rm(stateDir, { recursive: true, force: true });
});

describe('saving a checkpoint on a full disk', () => {
  it('keeps the previous checkpoint, removes the temp file and reports the error', async () => {
    const store = new FileCheckpointStore(stateDir);
    const checkpoint = checkpointOf(pendingApproval());
    await store.save(checkpoint);
    failure.full = true;
    const changed = { ...checkpoint, state: { ...checkpoint.state, prompt: 'a newer prompt' } };
    const error = await store.save(changed).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateError);
    expect((error as Error).message).toContain('ENOSPC');
    failure.full = false;
    expect(await store.read(checkpoint.sessionKey, checkpoint.id)).toEqual(checkpoint);
    const dir = join(stateDir, 'sessions', checkpoint.sessionKey, 'checkpoints');
    expect(await readdir(dir)).toEqual([`${checkpoint.id}.json`]);
  });
});
