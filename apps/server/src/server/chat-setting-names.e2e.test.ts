import { ScriptedProvider } from '@tiny-claw/core/testing';
import type { FakeFeishuMessage } from '@tiny-claw/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../__fixtures__/harness.js';

// The server's own sentences name settings. An operator's secret that happens to contain a word
// of such a name (FEISHU, APPROVERS) must not mask the name in a chat reply, while the secret
// itself is still removed from everything the chat gets.
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const REQUESTER = 'ou_requester';
const STRANGER = 'ou_stranger';
const CHAT = 'oc_team';

const repliesTo = (h: Harness, messageId: string) =>
  h.feishu.messages.filter((m) => m.kind === 'reply' && m.replyTo === messageId);
const isCard = (m: FakeFeishuMessage) => m.msgType === 'interactive';

describe('setting names in chat replies', () => {
  it.each([
    'FEISHU-prod-Zq8v2LkP9wXr4TnB',
    'acme-APPROVERS-Zq8v2LkP9wXr4TnB',
    'FEISHU_APPROVERS-Zq8v2LkP9wXr4TnB',
  ])(
    'keeps FEISHU_APPROVERS readable in the card and the "not allowed" reply with the model key %s, and still removes that key from the answer',
    async (secret) => {
      harness = await startHarness({
        provider: new ScriptedProvider({
          turns: [
            { tool_calls: [{ name: 'write', arguments: { path: 'app/.env', content: 'X=1\n' } }] },
            { text: `written with ${secret}` },
          ],
        }),
        env: {
          TINY_CLAW_ENABLED_TOOLS: 'read,write',
          FEISHU_APPROVERS: 'ou_lead',
          OPENAI_API_KEY: secret,
        },
      });
      const h = harness;
      const request = await h.say(CHAT, REQUESTER, 'write app/.env');
      await h.feishu.waitFor(() => repliesTo(h, request.messageId).some(isCard), 'the card');
      const card = repliesTo(h, request.messageId).find(isCard);
      const cardText = JSON.stringify(card?.content);
      expect(cardText).toContain('an approver listed in FEISHU_APPROVERS can decide');
      const approvalId = /Approval id: ([\w-]+)/.exec(cardText)?.[1] as string;

      const attempt = await h.say(CHAT, STRANGER, `/approve ${approvalId}`);
      await h.feishu.waitFor(() => repliesTo(h, attempt.messageId).length === 1, 'the refusal');
      expect(repliesTo(h, attempt.messageId)[0]?.text).toBe(
        `Not allowed: only the person who asked for this (or someone listed in FEISHU_APPROVERS) can decide approval ${approvalId}.`,
      );

      const approval = await h.say(CHAT, REQUESTER, `/approve ${approvalId}`);
      await h.feishu.waitFor(
        () => repliesTo(h, approval.messageId).some((m) => m.text?.startsWith('written with')),
        'the resumed answer',
      );
      const sent = JSON.stringify(h.feishu.messages);
      expect(sent).not.toContain(secret);
      expect(sent).not.toContain(secret.slice(-12));
      expect(h.logger.lines.join('\n')).not.toContain(secret);
    },
  );
});
