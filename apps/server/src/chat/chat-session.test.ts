import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatSession } from './chat-session.js';

let workdir: string;
beforeEach(async () => {
  workdir = await mkdtemp(join(tmpdir(), 'tiny-claw-chat-session-'));
});
afterEach(() => rm(workdir, { recursive: true, force: true }));

describe('a chat session', () => {
  it('is keyed feishu-<hash>-chat-<normalised chat id> and keeps the raw id for display', async () => {
    const session = await chatSession(workdir, 'oc_AbC');
    expect(session.key).toMatch(/^feishu-[0-9a-f]{12}-chat-oc_abc$/);
    expect(session).toMatchObject({
      source: 'feishu',
      externalId: 'chat:oc_abc',
      displayName: 'chat:oc_AbC',
      workdir: await realpath(workdir),
    });
  });

  it('is one session for every message of a chat, and another for another chat', async () => {
    const a = await chatSession(workdir, 'oc_team');
    expect((await chatSession(workdir, 'oc_team')).key).toBe(a.key);
    expect((await chatSession(workdir, 'oc_other')).key).not.toBe(a.key);
  });
});
