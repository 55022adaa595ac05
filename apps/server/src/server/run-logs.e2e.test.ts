import { mkdir, writeFile } from 'node:fs/promises';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import {
  createTempWorkspace,
  type FakeFeishuServer,
  feishuCardActionEvent,
  startFakeFeishuServer,
  type TempWorkspace,
  writeScript,
} from '@tiny-claw/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APP_ID,
  APP_SECRET,
  type Harness,
  type LoggedRecord,
  startHarness,
  VERIFICATION_TOKEN,
} from '../__fixtures__/harness.js';
import { type RunningServerProcess, startServerProcess } from '../__fixtures__/server-process.js';

// What a person typed, the tool's arguments, what the tool read and what the model answered:
// none of it may reach the log.
const MESSAGE_SENTINEL = 'MSG-SENTINEL-q7Zx';
const ARGUMENT_SENTINEL = 'ARG-SENTINEL-k4Pw';
const OUTPUT_SENTINEL = 'OUTPUT-SENTINEL-m2Rt';
const ANSWER_SENTINEL = 'ANSWER-SENTINEL-v9Lc';
const SENTINELS = [MESSAGE_SENTINEL, ARGUMENT_SENTINEL, OUTPUT_SENTINEL, ANSWER_SENTINEL];

let ws: TempWorkspace | undefined;
let feishu: FakeFeishuServer | undefined;
let server: RunningServerProcess | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  await server?.stop();
  await harness?.close();
  await feishu?.close();
  await ws?.cleanup();
  server = undefined;
  harness = undefined;
  feishu = undefined;
  ws = undefined;
});

/**
 * The real `tiny-claw-server` with a scripted model that reads a file (its path carries a
 * sentinel) and answers; a signed chat message (with a sentinel) starts the run. Resolves with
 * what the server wrote to stderr, once it has stopped.
 */
async function serveOneRun(env: Record<string, string>): Promise<string> {
  ws = await createTempWorkspace();
  feishu = await startFakeFeishuServer({ appId: APP_ID, appSecret: APP_SECRET });
  await mkdir(ws.path('notes'));
  await writeFile(ws.path(`notes/${ARGUMENT_SENTINEL}.txt`), `${OUTPUT_SENTINEL}\n`);
  const script = await writeScript(ws.dir, {
    turns: [
      {
        text: 'reading the notes',
        tool_calls: [{ name: 'read', arguments: { path: `notes/${ARGUMENT_SENTINEL}.txt` } }],
        usage: { input_tokens: 120, output_tokens: 30 },
      },
      { text: ANSWER_SENTINEL, usage: { input_tokens: 200, output_tokens: 40 } },
    ],
  });
  const prices = ws.path('prices.json');
  await writeFile(prices, JSON.stringify({ models: { scripted: { input: 1, output: 4 } } }));
  server = await startServerProcess(ws, feishu, {
    TINY_CLAW_PROVIDER: 'scripted',
    TINY_CLAW_SCRIPT: script,
    TINY_CLAW_PRICES: prices,
    TINY_CLAW_ENABLED_TOOLS: 'read',
    ...env,
  });
  const messageId = await server.say(
    'oc_logs',
    'ou_ann',
    `please read the notes ${MESSAGE_SENTINEL}`,
  );
  const fake = feishu;
  await fake.waitFor(
    () => fake.messages.some((m) => m.replyTo === messageId && m.text === ANSWER_SENTINEL),
    'the answer',
  );
  expect(await server.stop()).toBe(0);
  return server.stderr();
}

const lines = (stderr: string) => stderr.split('\n').filter((line) => line !== '');

describe('the server logs its runs', () => {
  it('writes JSON start, tool-call and finish lines for a run driven by a signed chat event, never the message, arguments, output or answer', {
    timeout: 30_000,
  }, async () => {
    const stderr = await serveOneRun({
      TINY_CLAW_LOG_FORMAT: 'json',
      TINY_CLAW_LOG_LEVEL: 'debug',
    });
    const records = lines(stderr).map((line) => {
      const parsed: unknown = JSON.parse(line);
      expect(parsed, line).toMatchObject({
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        level: expect.stringMatching(/^(debug|info|warn|error)$/),
        msg: expect.any(String),
      });
      return parsed as Record<string, unknown>;
    });
    for (const sentinel of SENTINELS) expect(stderr).not.toContain(sentinel);

    const started = records.filter((r) => r.msg === 'run started');
    const finished = records.filter((r) => r.msg === 'run finished');
    const tools = records.filter((r) => r.msg === 'tool call');
    expect(started).toHaveLength(1);
    expect(finished).toHaveLength(1);
    const runId = started[0]?.run_id;
    expect(runId).toEqual(expect.any(String));
    expect(started[0]).toMatchObject({
      level: 'info',
      chat_id: 'oc_logs',
      session_key: expect.stringMatching(/^feishu-[0-9a-f]{12}-chat-oc_logs$/),
      caller: 'main_loop',
      mode: 'act',
    });
    expect(finished[0]).toMatchObject({
      level: 'info',
      chat_id: 'oc_logs',
      session_key: started[0]?.session_key,
      run_id: runId,
      stop_reason: 'final',
      steps: 2,
      tool_calls: 1,
      input_tokens: 320,
      output_tokens: 70,
      cost_usd: 0.0006,
      duration_ms: expect.any(Number),
    });
    expect(tools).toEqual([
      expect.objectContaining({
        level: 'debug',
        chat_id: 'oc_logs',
        run_id: runId,
        step: 1,
        tool: 'read',
        outcome: 'ok',
        duration_ms: expect.any(Number),
      }),
    ]);
    // The listening line and the shutdown are JSON objects too.
    expect(records.some((r) => String(r.msg).includes('listening on'))).toBe(true);
    expect(records.at(-1)?.msg).toBe('tiny-claw-server: stopped');
  });

  it('at info writes the start and finish lines as text with key=value fields and no tool-call lines', {
    timeout: 30_000,
  }, async () => {
    const stderr = await serveOneRun({ TINY_CLAW_LOG_LEVEL: 'info' });
    for (const sentinel of SENTINELS) expect(stderr).not.toContain(sentinel);
    const log = lines(stderr);
    const start = log.find((line) => / INFO run started /.test(line));
    const finish = log.find((line) => / INFO run finished /.test(line));
    expect(start).toMatch(
      /^\d{4}-\d\d-\d\dT\S+ INFO run started chat_id=oc_logs session_key=feishu-[0-9a-f]{12}-chat-oc_logs run_id=\S+ /,
    );
    expect(finish).toMatch(
      / stop_reason=final steps=2 max_steps=20 tool_calls=1 input_tokens=320 output_tokens=70 cost_usd=0\.0006 duration_ms=\d+$/,
    );
    expect(log.filter((line) => line.includes('tool call'))).toEqual([]);
  });
});

/** The model writes `app/.env` (a protected file, so the call waits for approval), then answers. */
const writesEnv = () =>
  new ScriptedProvider({
    turns: [
      {
        tool_calls: [
          {
            name: 'write',
            arguments: { path: 'app/.env', content: `TOKEN=${ARGUMENT_SENTINEL}\n` },
          },
        ],
      },
      { text: ANSWER_SENTINEL },
    ],
  });

const repliesTo = (h: Harness, messageId: string) =>
  h.feishu.messages.filter((m) => m.kind === 'reply' && m.replyTo === messageId);

/** Every record's message and field values, as the log would carry them. */
const everything = (records: readonly LoggedRecord[]) => JSON.stringify(records);

describe('the server logs approvals', () => {
  it('logs an approval requested and decided from a card, with the approval id, tool, decision and who decided, never the arguments', async () => {
    const h = await startHarness({
      provider: writesEnv(),
      env: { TINY_CLAW_ENABLED_TOOLS: 'read,write', FEISHU_APPROVERS: 'ou_lead' },
    });
    harness = h;
    const request = await h.say('oc_team', 'ou_ann', `put the token in .env ${MESSAGE_SENTINEL}`);
    await h.feishu.waitFor(
      () => repliesTo(h, request.messageId).some((m) => m.msgType === 'interactive'),
      'the approval card',
    );
    const requested = h.logger.records.find((r) => r.message === 'approval requested');
    const approvalId = requested?.fields.approval_id as string;
    expect(requested).toMatchObject({
      level: 'info',
      fields: {
        chat_id: 'oc_team',
        session_key: expect.stringMatching(/^feishu-[0-9a-f]{12}-chat-oc_team$/),
        approval_id: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
        tool: 'write',
      },
    });
    // The card is the run's last request to Feishu; its finish line follows.
    await expect.poll(() => h.logger.records.some((r) => r.message === 'run finished')).toBe(true);
    expect(h.logger.records.find((r) => r.message === 'run finished')?.fields).toMatchObject({
      stop_reason: 'approval_required',
      approval_id: approvalId,
      tool_calls: 1,
    });

    const card = repliesTo(h, request.messageId).find((m) => m.msgType === 'interactive');
    await h.deliver(
      feishuCardActionEvent({
        chatId: 'oc_team',
        operatorOpenId: 'ou_lead',
        messageId: card?.messageId as string,
        value: {
          tiny_claw: 'approval',
          decision: 'approve',
          approval_id: approvalId,
          chat_id: 'oc_team',
        },
        token: VERIFICATION_TOKEN,
      }),
    );
    await h.feishu.waitFor(
      () => h.feishu.messages.some((m) => m.text === ANSWER_SENTINEL),
      'the resumed answer',
    );
    await h.server.close();
    expect(h.logger.records.find((r) => r.message === 'approval decided')).toMatchObject({
      level: 'info',
      fields: {
        chat_id: 'oc_team',
        session_key: requested?.fields.session_key,
        approval_id: approvalId,
        tool: 'write',
        decision: 'approved',
        decided_by: 'ou_lead',
      },
    });
    const runs = h.logger.records.filter((r) => r.message === 'run finished');
    expect(runs.map((r) => r.fields.stop_reason)).toEqual(['approval_required', 'final']);
    for (const sentinel of SENTINELS) expect(everything(h.logger.records)).not.toContain(sentinel);
  });

  it('logs a rejection typed as a command, and a refused decision with its refusal', async () => {
    const h = await startHarness({
      provider: writesEnv(),
      env: { TINY_CLAW_ENABLED_TOOLS: 'read,write', FEISHU_APPROVERS: 'ou_lead' },
    });
    harness = h;
    const request = await h.say('oc_team', 'ou_ann', `put the token in .env ${MESSAGE_SENTINEL}`);
    await h.feishu.waitFor(() => repliesTo(h, request.messageId).length > 0, 'the card');
    const approvalId = h.logger.records.find((r) => r.message === 'approval requested')?.fields
      .approval_id as string;

    const stranger = await h.say('oc_team', 'ou_stranger', `/approve ${approvalId}`);
    await h.feishu.waitFor(() => repliesTo(h, stranger.messageId).length > 0, 'the refusal');
    const reject = await h.say('oc_team', 'ou_ann', `/reject ${approvalId} ${MESSAGE_SENTINEL}`);
    await h.feishu.waitFor(() => repliesTo(h, reject.messageId).length > 0, 'the reply');
    await h.server.close();

    expect(h.logger.records.find((r) => r.message === 'approval decision refused')).toMatchObject({
      level: 'info',
      fields: {
        chat_id: 'oc_team',
        approval_id: approvalId,
        decision: 'approved',
        decided_by: 'ou_stranger',
        refusal: 'not_allowed',
      },
    });
    expect(h.logger.records.find((r) => r.message === 'approval decided')?.fields).toMatchObject({
      approval_id: approvalId,
      tool: 'write',
      decision: 'rejected',
      decided_by: 'ou_ann',
    });
    // The rejection's reason is what a person typed: it stays out of the log like any message.
    for (const sentinel of SENTINELS) expect(everything(h.logger.records)).not.toContain(sentinel);
  });
});
