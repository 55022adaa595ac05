import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { survivorsAfter, uniqueSleep } from './__fixtures__/live-processes.js';
import { runInProcessGroup } from './process-group.js';
import { findLiveLeftovers, PROCESS_TAG_ENV } from './process-sweep.js';

const isLinux = process.platform === 'linux';

function run(command: string, extra: Partial<Parameters<typeof runInProcessGroup>[0]> = {}) {
  return runInProcessGroup({
    command,
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    timeoutMs: 10_000,
    ...extra,
  });
}

describe('runInProcessGroup', () => {
  it('captures stdout, stderr and the exit code', async () => {
    const result = await run('echo out; echo err >&2; exit 7');
    expect(result.code).toBe(7);
    expect(result.stdout.head.toString()).toBe('out\n');
    expect(result.stderr.head.toString()).toBe('err\n');
    expect(result.timedOut).toBe(false);
    expect(result.leftoversKilled).toBe(false);
  });

  it('waits for late output of a background job while the pipes are open', async () => {
    const result = await run('(sleep 0.3; echo late) & echo early');
    expect(result.stdout.head.toString()).toBe('early\nlate\n');
    expect(result.pipesAbandoned).toBe(false);
  });

  it('bounds memory per stream with maxBufferBytes', async () => {
    const result = await run('head -c 100000 /dev/zero', { maxBufferBytes: 1000 });
    expect(result.stdout.head.length + result.stdout.tail.length).toBe(1000);
    expect(result.stdout.totalBytes).toBe(100_000);
  });

  it('kills a process that ignores SIGTERM with SIGKILL after the grace period', async () => {
    const marker = uniqueSleep();
    const started = Date.now();
    const result = await run(`trap '' TERM; sleep ${marker}; echo not-reached`, {
      timeoutMs: 300,
      killGraceMs: 300,
      drainMs: 300,
    });
    expect(result.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.stdout.head.toString()).not.toContain('not-reached');
    expect(await survivorsAfter(marker, 3_000)).toEqual([]);
  });

  it('kills the group when the abort signal fires and reports it as cancelled', async () => {
    const marker = uniqueSleep();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const result = await run(`sleep ${marker}`, { signal: controller.signal });
    expect(result.cancelled).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await survivorsAfter(marker, 3_000)).toEqual([]);
  });

  it('does not start anything when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await run('echo should-not-run', { signal: controller.signal });
    expect(result.cancelled).toBe(true);
    expect(result.code).toBeNull();
    expect(result.stdout.totalBytes).toBe(0);
  });

  it('reports a shell that cannot be started instead of throwing', async () => {
    const result = await run('true', { shell: '/nonexistent/bash' });
    expect(result.spawnError).toMatch(/ENOENT/);
  });

  it.runIf(isLinux)(
    'kills a setsid daemon that left the group, found by its environment tag',
    async () => {
      const marker = uniqueSleep();
      const result = await run(`setsid sleep ${marker} > /dev/null 2>&1 < /dev/null &`);
      expect(result.code).toBe(0);
      expect(result.leftoversKilled).toBe(true);
      expect(await survivorsAfter(marker, 3_000)).toEqual([]);
    },
  );

  it.runIf(isLinux)('tags the child environment so leftovers can be found', async () => {
    const result = await run(`printenv ${PROCESS_TAG_ENV}`);
    expect(result.stdout.head.toString()).toMatch(/^[0-9a-f]{32}\n$/);
    expect(await findLiveLeftovers(result.stdout.head.toString().trim(), undefined)).toEqual([]);
  });
});
