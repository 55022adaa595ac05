// A scripted model on 127.0.0.1 that answers instantly, in three wire dialects, so that tiny-claw and
// the peer CLIs can be driven through the same 20-step script:
//   POST /v1/chat/completions  OpenAI Chat Completions (SSE chunks or one JSON body)   → tiny-claw
//   POST /v1/responses         OpenAI Responses (SSE events, as the Codex CLI reads)   → codex
//   POST /v1/messages          Anthropic Messages (SSE events or one JSON body)        → claude
// The first `steps` requests that offer tools are answered with one read-like call of the client's
// own read tool (chosen from the tools the request offers), each on a different file f<n>.txt so no
// loop detector fires; every later tool-bearing request, and every request without tools, gets a
// short final text. Each request is logged with its arrival time and the time its response was
// fully written (performance.now() of this process, plus wall time), in memory and optionally as
// JSONL.
//
// Usable two ways: imported (`startMockLlm`, what run.mjs does, one fresh server per run), or on its
// own for poking at a CLI by hand:
//   node bench/peers/mock-llm.mjs --port 18080 --steps 20 --workdir /tmp/w --log /tmp/mock.jsonl
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const MODEL = 'mock';

/**
 * The read call to make at step `n`, in the shape of whichever read tool the client offers.
 * `names` are the tool names of the request. Returns null when none is recognised.
 */
export function readCallFor(names, n, workdir) {
  const file = `f${n}.txt`;
  const has = (name) => names.includes(name);
  // tiny-claw: read { path } relative to its workdir.
  if (has('read')) return { name: 'read', args: { path: file } };
  // Claude Code: Read { file_path } wants an absolute path.
  if (has('Read')) return { name: 'Read', args: { file_path: join(workdir, file) } };
  // Codex: its unified exec tool runs a command line in a shell; older builds offer `shell`
  // (argv array) or `shell_command` (one string).
  if (has('exec_command')) return { name: 'exec_command', args: { cmd: `cat ${file}` } };
  if (has('shell_command')) return { name: 'shell_command', args: { command: `cat ${file}` } };
  if (has('shell')) return { name: 'shell', args: { command: ['cat', file] } };
  return null;
}

function toolNames(dialect, body) {
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  return tools
    .map((tool) => (dialect === 'chat' ? (tool?.function?.name ?? tool?.name) : tool?.name))
    .filter((name) => typeof name === 'string');
}

function sse(res, events) {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  let out = '';
  for (const { event, data } of events) {
    if (event !== undefined) out += `event: ${event}\n`;
    out += `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
  }
  res.end(out);
}

function json(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

const usage = { input: 100, output: 10 };

function answerChat(res, body, turn) {
  const id = `chatcmpl-${turn.i}`;
  const created = 1_700_000_000;
  const call = turn.call && {
    id: `call_${turn.i}`,
    type: 'function',
    function: { name: turn.call.name, arguments: JSON.stringify(turn.call.args) },
  };
  const openaiUsage = {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
  };
  const finish = call ? 'tool_calls' : 'stop';
  if (!body.stream) {
    const message = { role: 'assistant', content: call ? null : turn.text };
    if (call) message.tool_calls = [call];
    return json(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model: MODEL,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage: openaiUsage,
    });
  }
  const includeUsage = body.stream_options?.include_usage === true;
  const chunk = (choices, u) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: MODEL,
    choices,
    ...(includeUsage ? { usage: u ?? null } : {}),
  });
  const delta = (d, finishReason = null) =>
    chunk([{ index: 0, delta: d, finish_reason: finishReason }]);
  const events = [{ data: delta({ role: 'assistant', content: '' }) }];
  if (call) events.push({ data: delta({ tool_calls: [{ index: 0, ...call }] }) });
  else events.push({ data: delta({ content: turn.text }) });
  events.push({ data: delta({}, finish) });
  if (includeUsage) events.push({ data: chunk([], openaiUsage) });
  events.push({ data: '[DONE]' });
  sse(res, events);
}

function answerResponses(res, body, turn) {
  const id = `resp_${turn.i}`;
  const item = turn.call
    ? {
        type: 'function_call',
        id: `fc_${turn.i}`,
        status: 'completed',
        call_id: `call_${turn.i}`,
        name: turn.call.name,
        arguments: JSON.stringify(turn.call.args),
      }
    : {
        type: 'message',
        id: `msg_${turn.i}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: turn.text, annotations: [] }],
      };
  const responsesUsage = {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.output,
  };
  const response = (status, output) => ({
    id,
    object: 'response',
    created_at: 1_700_000_000,
    status,
    model: MODEL,
    output,
    ...(status === 'completed' ? { usage: responsesUsage } : {}),
  });
  if (body.stream === false) return json(res, 200, response('completed', [item]));
  const events = [
    {
      event: 'response.created',
      data: { type: 'response.created', response: response('in_progress', []) },
    },
    {
      event: 'response.output_item.added',
      data: {
        type: 'response.output_item.added',
        output_index: 0,
        item: { ...item, status: 'in_progress' },
      },
    },
  ];
  if (!turn.call) {
    events.push({
      event: 'response.output_text.delta',
      data: {
        type: 'response.output_text.delta',
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        delta: turn.text,
      },
    });
  }
  events.push(
    {
      event: 'response.output_item.done',
      data: { type: 'response.output_item.done', output_index: 0, item },
    },
    {
      event: 'response.completed',
      data: { type: 'response.completed', response: response('completed', [item]) },
    },
  );
  sse(res, events);
}

function answerMessages(res, body, turn) {
  const id = `msg_${turn.i}`;
  const block = turn.call
    ? { type: 'tool_use', id: `toolu_${turn.i}`, name: turn.call.name, input: turn.call.args }
    : { type: 'text', text: turn.text };
  const stop = turn.call ? 'tool_use' : 'end_turn';
  const anthropicUsage = { input_tokens: usage.input, output_tokens: usage.output };
  const message = (content, stopReason) => ({
    id,
    type: 'message',
    role: 'assistant',
    model: body.model ?? MODEL,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: anthropicUsage,
  });
  if (!body.stream) return json(res, 200, message([block], stop));
  const start = block.type === 'tool_use' ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta =
    block.type === 'tool_use'
      ? { type: 'input_json_delta', partial_json: JSON.stringify(block.input) }
      : { type: 'text_delta', text: block.text };
  sse(res, [
    { event: 'message_start', data: { type: 'message_start', message: message([], null) } },
    {
      event: 'content_block_start',
      data: { type: 'content_block_start', index: 0, content_block: start },
    },
    { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta } },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: usage.output },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ]);
}

const ROUTES = [
  { dialect: 'chat', match: (p) => p.endsWith('/chat/completions'), answer: answerChat },
  { dialect: 'responses', match: (p) => p.endsWith('/responses'), answer: answerResponses },
  { dialect: 'messages', match: (p) => p.endsWith('/messages'), answer: answerMessages },
];

/**
 * Start the scripted model. Resolves once it listens on 127.0.0.1.
 *
 * @example
 * const mock = await startMockLlm({ steps: 20, workdir: '/tmp/w' });
 * // point a client at `${mock.url}/v1`, then read mock.events (one entry per request)
 * await mock.close();
 */
export async function startMockLlm({
  port = 0,
  steps = 20,
  workdir = process.cwd(),
  reply = 'done',
  log,
  dumpDir,
} = {}) {
  const events = [];
  let toolSteps = 0;
  const server = createServer((req, res) => {
    const arrived = performance.now();
    const wall = Date.now();
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = (req.url ?? '/').split('?')[0];
      const event = {
        i: events.length,
        method: req.method,
        path,
        arrived_ms: arrived,
        wall_ms: wall,
        req_bytes: raw.length,
      };
      events.push(event);
      res.on('finish', () => {
        event.resp_end_ms = performance.now();
        if (log) appendFileSync(log, `${JSON.stringify(event)}\n`);
      });
      if (dumpDir) {
        mkdirSync(dumpDir, { recursive: true });
        writeFileSync(join(dumpDir, `${event.i}-${path.replaceAll('/', '_')}.body`), raw);
      }
      const route = req.method === 'POST' ? ROUTES.find((r) => r.match(path)) : undefined;
      if (!route) {
        // Side traffic (model lists, token counts, telemetry): answer plainly, never a tool call.
        event.answer = 'other';
        if (path.endsWith('/models'))
          return json(res, 200, { object: 'list', data: [{ id: MODEL, object: 'model' }] });
        if (path.endsWith('/count_tokens')) return json(res, 200, { input_tokens: usage.input });
        return json(res, 404, { error: { message: `mock: no route for ${req.method} ${path}` } });
      }
      let body;
      try {
        body = JSON.parse(raw.toString('utf8') || '{}');
      } catch {
        event.answer = 'bad_json';
        return json(res, 400, { error: { message: 'mock: body is not JSON' } });
      }
      const names = toolNames(route.dialect, body);
      event.dialect = route.dialect;
      event.tools = names.length;
      event.stream = body.stream === true;
      let call = null;
      if (names.length > 0 && toolSteps < steps) {
        call = readCallFor(names, toolSteps, workdir);
        if (call) toolSteps += 1;
      }
      event.answer = call ? 'tool' : 'text';
      event.step = call ? toolSteps : null;
      if (call) event.tool = call.name;
      else if (names.length > 0 && toolSteps < steps)
        event.note = `no read tool among: ${names.join(',')}`;
      route.answer(res, body, { i: event.i, call, text: reply });
    });
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  const bound = server.address().port;
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    events,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections?.();
        server.close(() => ok());
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '18080' },
      steps: { type: 'string', default: '20' },
      workdir: { type: 'string', default: process.cwd() },
      reply: { type: 'string', default: 'done' },
      log: { type: 'string' },
      dump: { type: 'string' },
    },
  });
  const mock = await startMockLlm({
    port: Number(values.port),
    steps: Number(values.steps),
    workdir: resolve(values.workdir),
    reply: values.reply,
    log: values.log && resolve(values.log),
    dumpDir: values.dump && resolve(values.dump),
  });
  console.log(`mock model listening on ${mock.url} (steps ${values.steps}); Ctrl-C stops it`);
  process.on('SIGINT', () => mock.close().then(() => process.exit(0)));
}
