import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Logger, nullLogger } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLeases, LEASES_DIR, leaseRecordSchema } from './file-leases.js';

const here = dirname(fileURLToPath(import.meta.url));
const TTL = 30_000;

let stateDir: string;
let now: number;
const clock = () => new Date(now);

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-leases-'));
  now = Date.parse('2026-01-01T00:00:00.000Z');
});
afterEach(() => rm(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

/** The one directory of generations the leases of a single key live in. */
async function keyDir(): Promise<string> {
  const [only, ...more] = await readdir(join(stateDir, LEASES_DIR));
  expect(more).toEqual([]);
  return join(stateDir, LEASES_DIR, only as string);
}

describe('leases as files', () => {
  it('keeps only the newest generation of a lease, however often it is renewed', async () => {
    const leases = new FileLeases(stateDir, { logger: nullLogger, clock });
    const lease = await leases.acquire('chat:oc_1', 'a', TTL);
    for (let i = 0; i < 5; i += 1) expect(await lease?.renew()).toBe(true);
    const dir = await keyDir();
    expect(await readdir(dir)).toEqual(['6.json']);
    const record = leaseRecordSchema.parse(JSON.parse(await readFile(join(dir, '6.json'), 'utf8')));
    expect(record).toMatchObject({ key: 'chat:oc_1', holder: 'a', expiresAt: now + TTL });
  });

  it('moves a corrupt generation aside with a warning and goes on from the one below', async () => {
    const warnings: string[] = [];
    const logger: Logger = { ...nullLogger, warn: (message) => void warnings.push(message) };
    const leases = new FileLeases(stateDir, { logger, clock });
    const lease = await leases.acquire('chat:oc_1', 'a', TTL);
    await lease?.release();
    const dir = await keyDir();
    await writeFile(join(dir, '3.json'), '{"schemaVersion":1,');
    const next = await leases.acquire('chat:oc_1', 'b', TTL);
    expect(next?.holder).toBe('b');
    expect(warnings.some((message) => message.includes('3.json'))).toBe(true);
    expect((await readdir(dir)).some((name) => name.startsWith('3.json.unreadable-'))).toBe(true);
  });

  it('is never taken by two processes at once: one winner per key over ten rounds of four', async () => {
    const contenders = ['a', 'b', 'c', 'd'].map((holder) => startContender(holder));
    try {
      await Promise.all(contenders.map((contender) => contender.ready));
      for (let round = 0; round < 10; round += 1) {
        const key = `chat:round-${round}`;
        const answers = await Promise.all(contenders.map((contender) => contender.ask(key)));
        expect(answers.filter((answer) => answer === 'won')).toHaveLength(1);
      }
    } finally {
      for (const contender of contenders) contender.stop();
    }
  }, 60_000);
});

/** A process contending for leases: `ask(key)` resolves to `won` or `lost`. */
function startContender(holder: string) {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@tiny-claw/source',
      '--import',
      'tsx',
      join(here, '__fixtures__', 'lease-race.ts'),
      stateDir,
      holder,
    ],
    { cwd: join(here, '..', '..'), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const waiting = new Map<string, (answer: string) => void>();
  let readyResolve: () => void = () => {};
  let failed: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    readyResolve = resolve;
    failed = reject;
  });
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (line === 'ready') readyResolve();
      const [answer, key] = line.split(' ');
      if (key !== undefined && answer !== undefined) waiting.get(key)?.(answer);
    }
  });
  child.on('close', (code) => failed(new Error(`contender ${holder} exited ${code}: ${stderr}`)));
  return {
    ready,
    ask: (key: string) =>
      new Promise<string>((resolve) => {
        waiting.set(key, resolve);
        child.stdin.write(`go ${key}\n`);
      }),
    stop: () => child.kill(),
  };
}
