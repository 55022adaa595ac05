import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeLine } from './completion.js';

let ws: TempWorkspace;
beforeAll(async () => {
  ws = await createTempWorkspace({ 'notes.md': 'n', 'src/app.ts': 'a', '.hidden': 'h' });
});
afterAll(() => ws.cleanup());

describe('Tab completion in the chat', () => {
  it.each([
    ['/mo', ['/mode']],
    [
      '/',
      [
        '/help',
        '/mode',
        '/session',
        '/new',
        '/plan',
        '/trace',
        '/approvals',
        '/rules',
        '/cost',
        '/compact',
        '/exit',
      ],
    ],
    ['/zz', []],
  ])('completes the slash command %j', async (line, hits) => {
    expect(await completeLine(line, ws.dir)).toEqual([hits, line]);
  });

  it.each([
    ['read @no', ['@notes.md'], '@no'],
    ['read @s', ['@src/'], '@s'],
    ['read @src/', ['@src/app.ts'], '@src/'],
    ['read @', ['@notes.md', '@src/'], '@'],
    ['read @.h', ['@.hidden'], '@.h'],
    ['read @../', [], 'read @../'],
    ['read @/etc/', [], 'read @/etc/'],
    ['no mention', [], 'no mention'],
  ])('completes the mention in %j from the workdir', async (line, hits, replaced) => {
    expect(await completeLine(line, ws.dir)).toEqual([hits, replaced]);
  });

  it('completes no mention before the settings are loaded', async () => {
    expect(await completeLine('read @no', undefined)).toEqual([[], 'read @no']);
  });
});
