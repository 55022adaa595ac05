import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { type FakeFeishuMessage, feishuCardActionEvent } from '@tiny-claw/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, VERIFICATION_TOKEN } from '../__fixtures__/harness.js';
import { chatSession } from '../chat/chat-session.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const REQUESTER = 'ou_requester';
const APPROVER = 'ou_lead';
const STRANGER = 'ou_stranger';

/**
 * The model writes `app/.env` (a protected file), then answers. Not `.env` itself: the server runs
 * in its workdir here, and the `.env` of its working directory is its own settings file, which no
 * tool may write at all.
 */
const writesEnv = () =>
  new ScriptedProvider({
    turns: [
      { tool_calls: [{ name: 'write', arguments: { path: 'app/.env', content: 'TOKEN=1\n' } }] },
      { text: 'env written' },
    ],
  });

async function start(provider = writesEnv()): Promise<Harness> {
  harness = await startHarness({
    provider,
    env: { TINY_CLAW_ENABLED_TOOLS: 'read,write', FEISHU_APPROVERS: APPROVER },
  });
  return harness;
}

const repliesTo = (h: Harness, messageId: string) =>
  h.feishu.messages.filter((m) => m.kind === 'reply' && m.replyTo === messageId);
const isCard = (m: FakeFeishuMessage) => m.msgType === 'interactive';
const cardText = (m: FakeFeishuMessage | undefined) => JSON.stringify(m?.content ?? null);

interface ButtonValue {
  tiny_claw: string;
  decision: string;
  always?: string;
  approval_id: string;
  chat_id: string;
}

function buttons(card: FakeFeishuMessage): ButtonValue[] {
  const content = card.content as {
    elements: Array<{ tag: string; actions?: Array<{ value: ButtonValue }> }>;
  };
  return content.elements.flatMap(
    (element) => element.actions?.map((action) => action.value) ?? [],
  );
}

/** Ask for the `.env` write in `chat` and wait for the approval card. */
async function askForCard(h: Harness, chat = 'oc_team') {
  const request = await h.say(chat, REQUESTER, 'put TOKEN=1 in .env');
  expect(request.response.status).toBe(200);
  await h.feishu.waitFor(() => repliesTo(h, request.messageId).some(isCard), 'the approval card');
  const card = repliesTo(h, request.messageId).find(isCard) as FakeFeishuMessage;
  const approvalId = buttons(card)[0]?.approval_id as string;
  return { request, card, approvalId };
}

/** The last two segments of `dir`, alone or after `…/` or a leading path: how a card shows it. */
function lastTwoSegments(dir: string): RegExp {
  const tail = dir.split('/').filter(Boolean).slice(-2).join('/');
  const escaped = tail.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^(…/|/)?${escaped}$`);
}

describe('approvals in the chat', () => {
  it('says in words which approval, session and workdir are waiting when the card cannot be sent', async () => {
    const h = await start();
    h.feishu.fail({ endpoint: 'reply', msgType: 'interactive', status: 400, code: 230001 });
    const request = await h.say('oc_team', REQUESTER, 'put TOKEN=1 in .env');
    const paused = (m: FakeFeishuMessage) => m.text?.startsWith('Paused:') === true;
    await h.feishu.waitFor(() => repliesTo(h, request.messageId).some(paused), 'the paused text');
    const text = repliesTo(h, request.messageId).find(paused)?.text ?? '';
    const session = await chatSession(h.ws.dir, 'oc_team');
    expect(text).toMatch(
      /^Paused: a tool call needs approval \(([\w-]+)\) in session (\S+), workdir (.+)\. Approve with \/approve \1 or reject with \/reject \1 <reason>\.$/,
    );
    expect(text).toContain(`in session ${session.key}, `);
    const workdir = /, workdir (.+)\. Approve/.exec(text)?.[1] ?? '';
    expect(workdir).toMatch(lastTwoSegments(h.ws.dir));
    expect(repliesTo(h, request.messageId).some(isCard)).toBe(false);
  });

  it('asks with an interactive card when a chat message makes the model write .env, and writes nothing yet', async () => {
    const h = await start();
    const { card, approvalId } = await askForCard(h);
    expect(approvalId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    const content = card.content as {
      header: { title: { content: string } };
      elements: Array<{ text?: { content: string } }>;
    };
    const details = content.elements[0]?.text?.content ?? '';
    expect(content.header.title.content).toBe('Approval needed: write');
    expect(details).toMatch(
      /^Tool: write\nWhy: .*\.env.*\nArguments:\n {2}path: "app\/\.env"\n {2}content: "TOKEN=1⏎" \(8 chars, 2 lines\)\nSession: \S+\nWorkdir: .+\nExpires: \d{4}-/,
    );
    // The session the run belongs to, and the workdir by its last two segments.
    const session = await chatSession(h.ws.dir, 'oc_team');
    expect(details).toContain(`\nSession: ${session.key}\n`);
    expect(/\nWorkdir: (.+)\n/.exec(details)?.[1]).toMatch(lastTwoSegments(h.ws.dir));
    expect(details).toContain(`Approval id: ${approvalId}`);
    expect(cardText(card)).toContain(`<at id=${REQUESTER}></at>`);
    expect(buttons(card).map((b) => [b.decision, b.always, b.chat_id])).toEqual([
      ['approve', undefined, 'oc_team'],
      ['reject', undefined, 'oc_team'],
      ['approve', 'session', 'oc_team'],
      ['approve', 'project', 'oc_team'],
    ]);
    // What "always in this project" would write is on the card before anyone clicks.
    expect(cardText(card)).toContain(
      `adds to ${join(h.ws.dir, '.config', 'tiny-claw', 'rules.json')}: allow write app/.env in ${h.ws.dir}`,
    );
    await expect(readFile(h.ws.path('app/.env'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('refuses /approve in the chat from someone who is neither the requester nor an approver', async () => {
    const h = await start();
    const { approvalId } = await askForCard(h);
    const attempt = await h.say('oc_team', STRANGER, `/approve ${approvalId}`);
    await h.feishu.waitFor(() => repliesTo(h, attempt.messageId).length === 1, 'the refusal');
    expect(repliesTo(h, attempt.messageId)[0]?.text).toBe(
      `Not allowed: only the person who asked for this (or someone listed in FEISHU_APPROVERS) can decide approval ${approvalId}.`,
    );
    await expect(readFile(h.ws.path('app/.env'), 'utf8')).rejects.toThrow(/ENOENT/);
    const session = await chatSession(h.ws.dir, 'oc_team');
    const recordPath = join(
      h.ws.path('.state'),
      'sessions',
      session.key,
      'approvals',
      `${approvalId}.json`,
    );
    expect(JSON.parse(await readFile(recordPath, 'utf8')).status).toBe('pending');
  });

  it("writes the file after the requester's /approve, updates the card and replies with the resumed answer", async () => {
    const h = await start();
    const { card, approvalId } = await askForCard(h);
    const approve = await h.say('oc_team', REQUESTER, `/approve ${approvalId}`);
    await h.feishu.waitFor(
      () => repliesTo(h, approve.messageId).some((m) => m.text === 'env written'),
      'the resumed answer',
    );
    expect(repliesTo(h, approve.messageId).map((m) => m.text)).toEqual([
      `Approved ${approvalId} (by ${REQUESTER}). Continuing…`,
      'env written',
    ]);
    expect(await readFile(h.ws.path('app/.env'), 'utf8')).toBe('TOKEN=1\n');
    await h.feishu.waitFor(() => card.updates.length === 1, 'the card update');
    expect(JSON.stringify(card.updates[0])).toContain(`Approved by** <at id=${REQUESTER}>`);

    // The same /approve event delivered again is not handled again; a new /approve is refused.
    expect((await h.deliver(approve.event)).status).toBe(200);
    const repeat = await h.say('oc_team', REQUESTER, `/approve ${approvalId}`);
    await h.feishu.waitFor(() => repliesTo(h, repeat.messageId).length === 1, 'the second refusal');
    expect(repliesTo(h, repeat.messageId)[0]?.text).toMatch(/^Could not approve .* already used/);
    expect(repliesTo(h, approve.messageId)).toHaveLength(2);
  });

  it("decides with the card's button like the command, for an approver in FEISHU_APPROVERS", async () => {
    const h = await start();
    const { card, approvalId } = await askForCard(h);
    const approveButton = buttons(card).find((b) => b.decision === 'approve') as ButtonValue;
    const click = feishuCardActionEvent({
      chatId: 'oc_team',
      operatorOpenId: APPROVER,
      messageId: card.messageId,
      value: { ...approveButton },
      token: VERIFICATION_TOKEN,
    });
    const response = await h.deliver(click);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      toast: { type: 'info', content: 'Got it, deciding…' },
    });
    await h.feishu.waitFor(
      () => repliesTo(h, card.messageId).some((m) => m.text === 'env written'),
      'the answer',
    );
    expect(await readFile(h.ws.path('app/.env'), 'utf8')).toBe('TOKEN=1\n');
    expect(repliesTo(h, card.messageId)[0]?.text).toBe(
      `Approved ${approvalId} (by ${APPROVER}). Continuing…`,
    );
    // A second click on the same (now decided) card is refused in the chat.
    const second = await h.deliver(
      feishuCardActionEvent({
        chatId: 'oc_team',
        operatorOpenId: APPROVER,
        messageId: card.messageId,
        value: { ...approveButton },
        token: VERIFICATION_TOKEN,
      }),
    );
    expect(second.status).toBe(200);
    await h.feishu.waitFor(
      () => repliesTo(h, card.messageId).length === 3,
      'the refusal of the second click',
    );
    expect(repliesTo(h, card.messageId)[2]?.text).toMatch(/^Could not approve/);
  });

  it.each([
    ['session', 'Will not ask again in this chat while the server runs: allow write app/.env.'],
    ['project', 'Added to '],
  ])(
    'an "always" button (%s) approves, and the same write is not asked again',
    async (scope, said) => {
      const twice = new ScriptedProvider({
        turns: [
          {
            tool_calls: [{ name: 'write', arguments: { path: 'app/.env', content: 'TOKEN=1\n' } }],
          },
          {
            tool_calls: [{ name: 'write', arguments: { path: 'app/.env', content: 'TOKEN=2\n' } }],
          },
          { text: 'env written twice' },
        ],
      });
      const h = await start(twice);
      const { card } = await askForCard(h);
      const always = buttons(card).find((b) => b.always === scope) as ButtonValue;
      const response = await h.deliver(
        feishuCardActionEvent({
          chatId: 'oc_team',
          operatorOpenId: REQUESTER,
          messageId: card.messageId,
          value: { ...always },
          token: VERIFICATION_TOKEN,
        }),
      );
      expect(response.status).toBe(200);
      await h.feishu.waitFor(
        () => repliesTo(h, card.messageId).some((m) => m.text === 'env written twice'),
        'the answer',
      );
      expect(await readFile(h.ws.path('app/.env'), 'utf8')).toBe('TOKEN=2\n');
      expect(h.feishu.messages.filter(isCard)).toHaveLength(1);
      expect(repliesTo(h, card.messageId).some((m) => m.text?.startsWith(said))).toBe(true);
      const rulesFile = join(h.ws.dir, '.config', 'tiny-claw', 'rules.json');
      if (scope === 'project') {
        expect(JSON.parse(await readFile(rulesFile, 'utf8'))).toEqual({
          rules: [{ tool: 'write', path: 'app/.env', decision: 'allow', workdir: h.ws.dir }],
        });
      } else {
        await expect(readFile(rulesFile, 'utf8')).rejects.toThrow(/ENOENT/);
      }
    },
  );

  it('keeps nothing when someone who may not decide clicks an "always" button', async () => {
    const h = await start();
    const { card } = await askForCard(h);
    const always = buttons(card).find((b) => b.always === 'project') as ButtonValue;
    await h.deliver(
      feishuCardActionEvent({
        chatId: 'oc_team',
        operatorOpenId: STRANGER,
        messageId: card.messageId,
        value: { ...always },
        token: VERIFICATION_TOKEN,
      }),
    );
    await h.feishu.waitFor(
      () => repliesTo(h, card.messageId).some((m) => m.text?.startsWith('Not allowed')),
      'the refusal',
    );
    await expect(
      readFile(join(h.ws.dir, '.config', 'tiny-claw', 'rules.json'), 'utf8'),
    ).rejects.toThrow(/ENOENT/);
    await expect(readFile(h.ws.path('app/.env'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('refuses a decision made in another chat than the one the request came from', async () => {
    const h = await start();
    const { approvalId } = await askForCard(h, 'oc_team');
    const elsewhere = await h.say('oc_other', REQUESTER, `/approve ${approvalId}`);
    await h.feishu.waitFor(() => repliesTo(h, elsewhere.messageId).length === 1, 'the refusal');
    expect(repliesTo(h, elsewhere.messageId)[0]?.text).toMatch(
      new RegExp(
        `^Could not approve ${approvalId}: approval ${approvalId} belongs to another (session|chat)`,
      ),
    );
    await expect(readFile(h.ws.path('app/.env'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('rejects with a reason: the model is told, the file is left alone', async () => {
    const provider = new ScriptedProvider({
      turns: [
        { tool_calls: [{ name: 'write', arguments: { path: 'app/.env', content: 'TOKEN=1\n' } }] },
        { text: 'understood, not writing it' },
      ],
    });
    const h = await start(provider);
    const { approvalId } = await askForCard(h);
    const reject = await h.say(
      'oc_team',
      REQUESTER,
      `/reject ${approvalId} keep the token out of git`,
    );
    await h.feishu.waitFor(() =>
      repliesTo(h, reject.messageId).some((m) => m.text === 'understood, not writing it'),
    );
    const observation = provider.requests[1]?.messages.find((m) => m.role === 'tool');
    expect(observation?.content).toContain('keep the token out of git');
    await expect(readFile(h.ws.path('app/.env'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('answers a malformed command with its usage and never sends it to the model', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'should not run' }] });
    const h = await start(provider);
    const bad = await h.say('oc_team', REQUESTER, '/approve ../../etc/passwd');
    await h.feishu.waitFor(() => repliesTo(h, bad.messageId).length === 1);
    expect(repliesTo(h, bad.messageId)[0]?.text).toMatch(
      /^To approve a request, write \/approve <id>/,
    );
    expect(provider.requests).toEqual([]);
  });
});
