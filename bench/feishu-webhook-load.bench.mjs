// Feishu webhook under load: 200 signed, encrypted message events a second for 30 s against the
// real tiny-claw-server (its own process), while an agent run is in progress in the same server
// (a bash call that sleeps through the whole test) and every event starts a run of its own (the
// scripted model answers at once). 5 % of the events are delivered a second time, as Feishu's
// retries do.
// Measures the ack latency (request sent → 200 received), and afterwards, from what reached the
// loopback Feishu API: events acknowledged but never answered (lost) and answered twice.
// Goals: p99 ≤ 50 ms, max ≤ 200 ms, none lost, none processed twice.
// Knobs: BENCH_RATE (events/s, default 200), BENCH_SECONDS (default 30), BENCH_CHATS (default 400).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, report, round } from './lib.mjs';

const rate = Number(process.env.BENCH_RATE ?? 200);
const seconds = Number(process.env.BENCH_SECONDS ?? 30);
const chats = Number(process.env.BENCH_CHATS ?? 400);
const REPEAT_SHARE = 0.05;
const DRAIN_TIMEOUT_MS = 180_000;

const serverBin = join(repoRoot, 'apps/server/bin/tiny-claw-server.js');
const testkitDist = join(repoRoot, 'packages/testkit/dist/index.js');
if (!existsSync(join(repoRoot, 'apps/server/dist/main.js')) || !existsSync(testkitDist)) {
  console.error(
    'feishu-webhook-load: build first (pnpm build): apps/server/dist or packages/testkit/dist is missing',
  );
  process.exit(1);
}
const testkit = await import(testkitDist);

const APP_ID = 'cli_bench';
const APP_SECRET = 'bench-app-secret-Qw9rT2yU';
const ENCRYPT_KEY = 'bench-encrypt-key-Zx8cV4bN';
const TOKEN = 'bench-verification-token-Lk3jH7';

const feishu = await testkit.startFakeFeishuServer({ appId: APP_ID, appSecret: APP_SECRET });
const total = Math.round(rate * seconds);

const stateDir = mkdtempSync(join(tmpdir(), 'tc-feishu-load-'));
// The first model call (the long run) asks for a bash call that outlasts the load; every later
// call finds the script exhausted and answers at once with SCRIPT_EXHAUSTED.
const SCRIPT_EXHAUSTED = '(script exhausted)';
const script = join(stateDir, 'script.json');
writeFileSync(
  script,
  JSON.stringify({
    turns: [
      {
        tool_calls: [
          {
            name: 'bash',
            arguments: { command: `sleep ${seconds + 10}`, timeout_seconds: seconds + 30 },
          },
        ],
      },
    ],
  }),
);
const server = spawn(
  process.execPath,
  [serverBin, '--host', '127.0.0.1', '--port', '0', '--max-steps', '3'],
  {
    cwd: stateDir,
    env: {
      PATH: process.env.PATH,
      HOME: stateDir,
      TINY_CLAW_STATE_DIR: join(stateDir, 'state'),
      TINY_CLAW_WORKDIR: stateDir,
      TINY_CLAW_LOG_LEVEL: 'error',
      TINY_CLAW_TRACE_MODE: 'off',
      TINY_CLAW_PROVIDER: 'scripted',
      TINY_CLAW_SCRIPT: script,
      TINY_CLAW_ENABLED_TOOLS: 'bash',
      TINY_CLAW_APPROVAL_PROVIDER: 'off',
      TINY_CLAW_SANDBOX: 'off',
      FEISHU_APP_ID: APP_ID,
      FEISHU_APP_SECRET: APP_SECRET,
      FEISHU_ENCRYPT_KEY: ENCRYPT_KEY,
      FEISHU_VERIFICATION_TOKEN: TOKEN,
      FEISHU_DOMAIN: feishu.url,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);
let serverLog = '';
const url = await new Promise((resolve, reject) => {
  server.stderr.setEncoding('utf8');
  server.stderr.on('data', (chunk) => {
    serverLog += chunk;
    const match = /listening on (http:\/\/\S+)/.exec(serverLog);
    if (match) resolve(match[1]);
  });
  server.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${serverLog}`)));
});
const endpoint = `${url}/api/events/feishu`;

async function deliver(event) {
  const { body, headers } = testkit.feishuRequest(event, { encryptKey: ENCRYPT_KEY });
  const started = performance.now();
  const response = await fetch(endpoint, { method: 'POST', headers, body });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

// The long run, in its own chat: its bash call runs until after the load.
await deliver(
  testkit.feishuMessageEvent({
    chatId: 'oc_long_run',
    senderOpenId: 'ou_bench',
    text: 'a long task',
    token: TOKEN,
  }),
);
await feishu.waitFor(
  () => feishu.messages.some((m) => m.chatId === 'oc_long_run' && m.text?.includes('→ bash')),
  'the long run to start its bash call',
);

const latencies = [];
const statuses = new Map();
const acked = new Set();
const sent = [];
const inFlight = [];
const start = performance.now();
for (let i = 0; i < total; i += 1) {
  const due = start + (i * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
  const event = testkit.feishuMessageEvent({
    chatId: `oc_chat_${i % chats}`,
    senderOpenId: `ou_user_${i % 50}`,
    text: `question ${i}`,
    token: TOKEN,
  });
  const messageId = event.event.message.message_id;
  feishu.knowMessage(messageId, event.event.message.chat_id);
  sent.push(event);
  const deliveries = [event];
  if (i % Math.round(1 / REPEAT_SHARE) === 0) deliveries.push(event);
  inFlight.push(
    (async () => {
      for (const delivery of deliveries) {
        const { status, ms } = await deliver(delivery).catch(() => ({ status: 0, ms: Number.NaN }));
        latencies.push(ms);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 200) acked.add(messageId);
      }
    })(),
  );
}
await Promise.all(inFlight);
const sendSeconds = (performance.now() - start) / 1000;

// Wait until every acknowledged message has its answer (a reply to it), or give up. Answers are
// counted as they arrive, so the check stays cheap while thousands of messages come in.
const replies = new Map();
let counted = 0;
const countReplies = () => {
  for (; counted < feishu.messages.length; counted += 1) {
    const message = feishu.messages[counted];
    if (message.kind === 'reply' && message.text === SCRIPT_EXHAUSTED) {
      replies.set(message.replyTo, (replies.get(message.replyTo) ?? 0) + 1);
    }
  }
  return replies;
};
const drainStart = performance.now();
await feishu
  .waitFor(
    () => countReplies().size >= acked.size && [...acked].every((id) => replies.has(id)),
    'every answer',
    DRAIN_TIMEOUT_MS,
  )
  .catch(() => {});
const drainMs = performance.now() - drainStart;
countReplies();
const lost = [...acked].filter((id) => !replies.has(id)).length;
const twice = [...replies.values()].filter((count) => count > 1).length;

if (process.env.BENCH_DEBUG) {
  const lostIds = [...acked].filter((id) => !replies.has(id));
  const other = feishu.messages
    .filter((m) => m.kind === 'reply' && m.text !== SCRIPT_EXHAUSTED)
    .map((m) => m.text);
  console.error(
    JSON.stringify(
      {
        lostIds: lostIds.slice(0, 5),
        otherReplies: other.slice(0, 10),
        feishuRequests: feishu.requests.length,
        serverLog: serverLog.slice(-3000),
      },
      null,
      2,
    ),
  );
}
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
await feishu.close();
rmSync(stateDir, { recursive: true, force: true });

const sorted = latencies.filter((ms) => Number.isFinite(ms)).sort((a, b) => a - b);
const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const figures = {
  events: total,
  repeatedDeliveries: latencies.length - total,
  rateAchieved: round(total / sendSeconds, 1),
  statuses: Object.fromEntries(statuses),
  ackMs: { p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted.at(-1)) },
  acknowledged: acked.size,
  lost,
  processedTwice: twice,
  drainSeconds: round(drainMs / 1000, 1),
};
console.log(JSON.stringify(figures, null, 2));
const row = 'webhook-ack';
report(
  'feishu-webhook-load',
  [
    {
      row,
      measure: `ack p50 (${rate} events/s for ${seconds} s, a run active)`,
      figure: figures.ackMs.p50,
      unit: 'ms',
      goal: '—',
    },
    {
      row,
      measure: 'ack p99',
      figure: figures.ackMs.p99,
      unit: 'ms',
      goal: '≤ 50 ms',
      pass: figures.ackMs.p99 <= 50,
    },
    {
      row,
      measure: 'ack max',
      figure: figures.ackMs.max,
      unit: 'ms',
      goal: '≤ 200 ms',
      pass: figures.ackMs.max <= 200,
    },
    {
      row,
      measure: 'events acknowledged but never answered',
      figure: lost,
      unit: '',
      goal: '0',
      pass: lost === 0,
    },
    {
      row,
      measure: 'events answered twice',
      figure: twice,
      unit: '',
      goal: '0',
      pass: twice === 0,
    },
  ],
  { figures },
);
