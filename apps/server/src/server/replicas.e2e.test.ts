import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { LLMProvider, LLMRequest, LLMResponse } from '@tiny-claw/core';
import { msg } from '@tiny-claw/core';
import {
  createTempWorkspace,
  type FakeFeishuMessage,
  type FakeFeishuServer,
  feishuMessageEvent,
  feishuRequest,
  processesWith,
  startFakeFeishuServer,
  type TempWorkspace,
  writeScript,
} from '@tiny-claw/testkit';
import { type StartedPostgres, startPostgres } from '@tiny-claw/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ID,
  APP_SECRET,
  ENCRYPT_KEY,
  type Harness,
  startHarness,
  untilIdle,
  VERIFICATION_TOKEN,
} from '../__fixtures__/harness.js';
import { startServerProcess } from '../__fixtures__/server-process.js';

// Two replicas of the server on one PostgreSQL, as behind a load balancer: the exactly-once rules
// hold across them — one run per event, one execution per approval, one run at a time per chat —
// and a replica that dies holding a chat's lease blocks that chat only until the lease expires.

const REQUESTER = 'ou_requester';
/** Generous bounds: CI runs other suites beside this one on two cores. */
const BOUND_MS = 30_000;
const LEASE_SECONDS = '2';

/**
 * The model both replicas call: `run: <command>` asks for bash with that command, a tool result
 * ends the run with "done", anything else is answered in words. It records the prompts it was given.
 */
class ReplicaModel implements LLMProvider {
  readonly name = 'replica-model';
  readonly model = 'replica-model';
  readonly prompts: string[] = [];

  async complete(request: LLMRequest): Promise<LLMResponse> {
    const last = request.messages[request.messages.length - 1];
    const reply = (message: LLMResponse['message']): LLMResponse => ({
      message,
      provider: this.name,
      model: this.model,
    });
    if (last?.role === 'tool') return reply(msg.assistant('done'));
    const users = request.messages.filter((m) => m.role === 'user');
    const content = users[users.length - 1]?.content;
    const prompt = typeof content === 'string' ? content : '';
    this.prompts.push(prompt);
    const command = /^run: ([\s\S]+)$/.exec(prompt)?.[1];
    if (command === undefined) return reply(msg.assistant(`answer to ${prompt}`));
    return reply(
      msg.assistant('', [
        { id: `call_${this.prompts.length}`, name: 'bash', arguments: { command } },
      ]),
    );
  }
}

let postgres: StartedPostgres;
let feishu: FakeFeishuServer;
let ws: TempWorkspace;
let model: ReplicaModel;
let a: Harness;
let b: Harness;

beforeAll(async () => {
  postgres = await startPostgres();
  feishu = await startFakeFeishuServer({ appId: APP_ID, appSecret: APP_SECRET });
  ws = await createTempWorkspace();
  model = new ReplicaModel();
  const options = {
    workspace: ws,
    feishu,
    provider: model,
    env: {
      TINY_CLAW_STATE_URL: postgres.url,
      TINY_CLAW_ENABLED_TOOLS: 'bash',
      TINY_CLAW_SANDBOX: 'off',
      TINY_CLAW_CHAT_LEASE_SECONDS: LEASE_SECONDS,
      FEISHU_APPROVERS: REQUESTER,
    },
  };
  a = await startHarness(options);
  b = await startHarness(options);
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await feishu?.close();
  await ws?.cleanup();
  await postgres?.stop();
});

const repliesTo = (messageId: string) =>
  feishu.messages.filter((m) => m.kind === 'reply' && m.replyTo === messageId);
const isCard = (m: FakeFeishuMessage) => m.msgType === 'interactive';

/** A signed, encrypted message event, as the exact bytes Feishu would post. */
function messageRequest(chatId: string, text: string) {
  const event = feishuMessageEvent({
    chatId,
    senderOpenId: REQUESTER,
    text,
    token: VERIFICATION_TOKEN,
  });
  feishu.knowMessage(event.event.message.message_id, chatId);
  return {
    messageId: event.event.message.message_id,
    ...feishuRequest(event, { encryptKey: ENCRYPT_KEY }),
  };
}

/** Resolves once `check` holds; fails after `bound` ms saying what was awaited. */
async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  bound = BOUND_MS,
): Promise<void> {
  const deadline = Date.now() + bound;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Both replicas have no chat work running or waiting. */
const bothIdle = () => Promise.all([untilIdle(a.server, BOUND_MS), untilIdle(b.server, BOUND_MS)]);

describe('two replicas on one PostgreSQL', { timeout: 60_000 }, () => {
  it('shows the shared state backend, its password masked, in /health', async () => {
    const response = await fetch(`${a.server.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ok',
      state: {
        backend: 'postgres',
        url: expect.stringMatching(
          new RegExp(`^postgres(ql)?://[^/]*:${new URL(postgres.url).port}/`),
        ),
        reachable: true,
        schemaVersion: expect.any(Number),
      },
    });
  });

  it('runs a duplicated event once when it reaches both replicas', async () => {
    const request = messageRequest('oc_dup', 'hello once');
    const post = (h: Harness) => h.postRaw(request.body, request.headers);
    const statuses = (await Promise.all([post(a), post(b)])).map((r) => r.status);
    expect(statuses).toEqual([200, 200]);
    await feishu.waitFor(() => repliesTo(request.messageId).length > 0, 'the answer', BOUND_MS);
    await bothIdle();
    expect(repliesTo(request.messageId).map((m) => m.text)).toEqual(['answer to hello once']);
    expect(model.prompts.filter((p) => p === 'hello once')).toHaveLength(1);
  });

  it('executes an approved call once when /approve reaches both replicas at the same time', async () => {
    const ask = messageRequest('oc_approve', 'run: rm -f gone.txt; echo x >> approved.log');
    expect((await a.postRaw(ask.body, ask.headers)).status).toBe(200);
    await feishu.waitFor(
      () => repliesTo(ask.messageId).some(isCard),
      'the approval card',
      BOUND_MS,
    );
    await bothIdle();
    const card = repliesTo(ask.messageId).find(isCard);
    const approvalId = /"approval_id":"([\w-]+)"/.exec(JSON.stringify(card?.content))?.[1] ?? '';
    expect(approvalId).not.toBe('');
    const first = messageRequest('oc_approve', `/approve ${approvalId}`);
    const second = messageRequest('oc_approve', `/approve ${approvalId}`);
    await Promise.all([
      a.postRaw(first.body, first.headers),
      b.postRaw(second.body, second.headers),
    ]);
    await feishu.waitFor(
      () => [first, second].every((r) => repliesTo(r.messageId).length > 0),
      'an answer to each /approve',
      BOUND_MS,
    );
    await bothIdle();
    expect(await readFile(ws.path('approved.log'), 'utf8')).toBe('x\n');
    const texts = [first, second].flatMap((r) => repliesTo(r.messageId).map((m) => m.text ?? ''));
    expect(texts.filter((t) => t.startsWith(`Approved ${approvalId}`))).toHaveLength(1);
    expect(texts.filter((t) => t.startsWith(`Could not approve ${approvalId}`))).toHaveLength(1);
  });

  it('never runs two messages of one chat at the same time, though they reach different replicas', async () => {
    const slow = (n: number) =>
      messageRequest(
        'oc_order',
        `run: echo start-${n} >> order.txt; sleep 1; echo end-${n} >> order.txt`,
      );
    const one = slow(1);
    const two = slow(2);
    await Promise.all([a.postRaw(one.body, one.headers), b.postRaw(two.body, two.headers)]);
    await feishu.waitFor(
      () => [one, two].every((r) => repliesTo(r.messageId).some((m) => m.text === 'done')),
      'both runs to finish',
      BOUND_MS,
    );
    const lines = (await readFile(ws.path('order.txt'), 'utf8')).trim().split('\n');
    const [firstRun, secondRun] = lines[0] === 'start-1' ? [1, 2] : [2, 1];
    expect(lines).toEqual([
      `start-${firstRun}`,
      `end-${firstRun}`,
      `start-${secondRun}`,
      `end-${secondRun}`,
    ]);
    await bothIdle();
  });

  it("runs a chat's queued message on the other replica once a killed replica's lease expires", async () => {
    // A third replica, its own process, that dies (SIGKILL) in the middle of a chat's run.
    const marker = `30.${process.pid}${Date.now() % 100_000}`;
    const script = await writeScript(ws.dir, {
      turns: [
        {
          tool_calls: [
            { name: 'bash', arguments: { command: `echo held > held.txt; sleep ${marker}` } },
          ],
        },
      ],
    });
    const crashing = await startServerProcess(ws, feishu, {
      TINY_CLAW_STATE_URL: postgres.url,
      TINY_CLAW_PROVIDER: 'scripted',
      TINY_CLAW_SCRIPT: script,
      TINY_CLAW_ENABLED_TOOLS: 'bash',
      TINY_CLAW_SANDBOX: 'off',
      TINY_CLAW_CHAT_LEASE_SECONDS: LEASE_SECONDS,
      // The process's HOME is the workspace here; it is a throwaway folder, not a real home.
      TINY_CLAW_ALLOW_ROOT_WORKDIR: '1',
    });
    try {
      await crashing.say('oc_crash', REQUESTER, 'hold the chat');
      await until(() => existsSync(ws.path('held.txt')), 'the crashing replica to be running');
      const queued = messageRequest('oc_crash', 'after the crash');
      expect((await b.postRaw(queued.body, queued.headers)).status).toBe(200);
      await until(
        () => b.logger.lines.some((l) => l.includes('chat oc_crash waits for its lease')),
        'replica b to wait for the lease',
      );
      expect(model.prompts).not.toContain('after the crash');
      await crashing.kill();
      await feishu.waitFor(
        () => repliesTo(queued.messageId).some((m) => m.text === 'answer to after the crash'),
        'the queued message to run on replica b',
        BOUND_MS,
      );
    } finally {
      await crashing.kill();
      // The killed replica's bash command lives on in its own process group: end it.
      for (const pid of await processesWith(`sleep ${marker}`)) process.kill(pid, 'SIGKILL');
    }
  }, 90_000);
});

describe('a replica whose database is unreachable', () => {
  it('answers /health with 503, saying why, and the URL masked', async () => {
    const down = await startHarness({
      noFeishu: true,
      env: { TINY_CLAW_STATE_URL: 'postgres://claw:secret-pw@127.0.0.1:9/claw?sslmode=disable' },
    });
    try {
      const response = await fetch(`${down.server.url}/health`);
      expect(response.status).toBe(503);
      const health = await response.json();
      expect(health).toMatchObject({
        status: 'unavailable',
        state: {
          backend: 'postgres',
          url: 'postgres://claw:***@127.0.0.1:9/claw?sslmode=***',
          reachable: false,
          problem: expect.stringContaining('check TINY_CLAW_STATE_URL'),
        },
      });
      expect(JSON.stringify(health)).not.toContain('secret-pw');
    } finally {
      await down.close();
    }
  });
});
