import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stateStoreContract } from '@tiny-claw/testkit/state-store';
import { createFileStore } from './file-store.js';

stateStoreContract('createFileStore', async (clock) => {
  const dir = await mkdtemp(join(tmpdir(), 'tiny-claw-contract-'));
  return {
    store: createFileStore(dir, { clock }),
    // Where the tracing package's file recorder writes a trace.
    async writeTrace(sessionKey, traceId) {
      const traces = join(dir, 'sessions', sessionKey, 'traces');
      await mkdir(traces, { recursive: true });
      await writeFile(join(traces, `${traceId}.json`), '{}\n');
      return join(traces, `${traceId}.json`);
    },
    cleanup: () => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }),
  };
});
