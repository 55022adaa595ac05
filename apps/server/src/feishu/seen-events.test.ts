import { readFile, writeFile } from 'node:fs/promises';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../__fixtures__/harness.js';
import { SEEN_TTL_MS, SeenEvents } from './seen-events.js';

let ws: TempWorkspace;
let now = 1_000_000;
const open = (extra: { maxEntries?: number } = {}) =>
  SeenEvents.open({
    path: ws.path('state/feishu/seen.jsonl'),
    logger: memoryLogger(),
    now: () => now,
    ...extra,
  });

beforeEach(async () => {
  ws = await createTempWorkspace();
  now = 1_000_000;
});
afterEach(() => ws.cleanup());

describe('seen Feishu event ids', () => {
  it('claims a set of ids once; any id seen before makes the claim fail', async () => {
    const seen = await open();
    expect(seen.claim(['event:e1', 'message:m1'])).toBe(true);
    expect(seen.claim(['event:e1', 'message:m1'])).toBe(false);
    expect(seen.claim(['event:e2', 'message:m1'])).toBe(false);
    expect(seen.has('event:e2')).toBe(false);
    await seen.close();
  });

  it('lets exactly one of many simultaneous claims of one id win', async () => {
    const seen = await open();
    const wins = await Promise.all(
      Array.from({ length: 20 }, async () => seen.claim(['event:same'])),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
    await seen.close();
  });

  it('remembers ids across a restart, in a private file', async () => {
    const first = await open();
    first.claim(['event:e1']);
    await first.flush();
    await first.close();
    const second = await open();
    expect(second.has('event:e1')).toBe(true);
    expect(second.claim(['event:e1'])).toBe(false);
    await second.close();
    const { stat } = await import('node:fs/promises');
    expect((await stat(ws.path('state/feishu/seen.jsonl'))).mode & 0o777).toBe(0o600);
  });

  it('forgets ids after 12 hours, and on the next start leaves them out of the file', async () => {
    const seen = await open();
    seen.claim(['event:old']);
    await seen.close();
    now += SEEN_TTL_MS;
    const later = await open();
    expect(later.claim(['event:old'])).toBe(true);
    await later.close();
    expect(
      (await readFile(ws.path('state/feishu/seen.jsonl'), 'utf8')).trim().split('\n'),
    ).toHaveLength(1);
  });

  it('keeps a bounded number of ids, forgetting the oldest first', async () => {
    const seen = await open({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) seen.claim([`event:${id}`]);
    expect(seen.size).toBeLessThanOrEqual(3);
    expect(seen.has('event:e')).toBe(true);
    expect(seen.has('event:a')).toBe(false);
    await seen.close();
  });

  it('skips a torn last line left by a crash and keeps the rest', async () => {
    const seen = await open();
    seen.claim(['event:e1']);
    await seen.close();
    const path = ws.path('state/feishu/seen.jsonl');
    await writeFile(path, `${await readFile(path, 'utf8')}{"k":"event:e2","t":10`);
    const logger = memoryLogger();
    const reopened = await SeenEvents.open({ path, logger, now: () => now });
    expect(reopened.has('event:e1')).toBe(true);
    expect(logger.lines.some((line) => line.includes('skipped 1 unreadable line'))).toBe(true);
    await reopened.close();
  });
});
