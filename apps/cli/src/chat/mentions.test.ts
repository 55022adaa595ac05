import { writeFile } from 'node:fs/promises';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachMentions, MENTION_MAX_BYTES, readMentions } from './mentions.js';

let ws: TempWorkspace;
let settings: Parameters<typeof readMentions>[1];
beforeAll(async () => {
  ws = await createTempWorkspace({
    'a.txt': 'alpha\n',
    'dir/b.txt': 'beta\n',
    'team.env': 'KEY=1\n',
  });
  await writeFile(ws.path('big.txt'), 'x'.repeat(MENTION_MAX_BYTES + 10));
  await writeFile(ws.path('bin.dat'), Buffer.from([0x41, 0x00, 0x42]));
  settings = {
    workdir: ws.dir,
    stateDir: ws.path('.state'),
    configDir: ws.path('.config'),
    settingsPaths: [ws.path('team.env')],
  };
});
afterAll(() => ws.cleanup());

describe('@path mentions', () => {
  it.each([
    ['@a.txt', { attached: true, relative: 'a.txt', text: 'alpha\n', truncated: false }],
    ['@dir/b.txt', { attached: true, relative: 'dir/b.txt', text: 'beta\n' }],
    ['@big.txt', { attached: true, truncated: true }],
    [
      '@../x.txt',
      { attached: false, reason: expect.stringContaining('must stay under the workdir') },
    ],
    ['@a.txt.', { attached: true, relative: 'a.txt' }],
    ['(@a.txt)', { attached: true, relative: 'a.txt' }],
    ['@team.env', { attached: false, reason: expect.stringContaining('settings path') }],
    ['@bin.dat', { attached: false, reason: 'not a text file' }],
    ['@dir', { attached: false, reason: 'not a regular file' }],
    ['@missing.txt', { attached: false, reason: expect.stringContaining('ENOENT') }],
  ])('%s goes through the read path guard', async (text, expected) => {
    const [mention] = await readMentions(`look at ${text}`, settings);
    expect(mention).toMatchObject(expected);
  });

  it('attaches each file once after the prompt and says what it did not attach', async () => {
    const said: string[] = [];
    const prompt = await attachMentions(
      'see @a.txt, @a.txt and @../x',
      { settings } as never,
      (l) => said.push(l),
    );
    expect(prompt).toBe('see @a.txt, @a.txt and @../x\n\n<file path="a.txt">\nalpha\n\n</file>');
    expect(said).toEqual([
      'attached @a.txt (6 chars)',
      expect.stringMatching(/^@\.\.\/x not attached: path must stay under the workdir/),
    ]);
  });

  it('leaves a prompt without mentions as it is (an e-mail address is not one)', async () => {
    expect(await attachMentions('mail me@example.com', { settings } as never, () => {})).toBe(
      'mail me@example.com',
    );
  });
});
