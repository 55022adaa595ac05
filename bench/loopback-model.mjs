// A scripted OpenAI Chat Completions model on 127.0.0.1 for the bench scripts that drive the built
// CLI: the first `toolSteps` requests are answered with one tool call each (`toolCall(n)` builds
// it, n counting from 1), every later one with a final text. It answers instantly, streamed (SSE)
// or as one JSON body as the request asks, so what is measured is the harness, never the model.
// `onRequest` runs when a request's headers arrive, before its body is read — the moment the
// harness has sent it.
import { createServer } from 'node:http';

const CREATED = 1_700_000_000;

/**
 * @param {{
 *   toolSteps?: number,
 *   toolCall?: (n: number) => { name: string, arguments: Record<string, unknown> },
 *   reply?: string,
 *   onRequest?: (info: { n: number, at: number }) => void,
 *   onBody?: (info: { n: number, bytes: number }) => void,
 * }} options
 * @returns {Promise<{ baseUrl: string, requests: () => number, close: () => Promise<void> }>}
 */
export async function startLoopbackModel(options = {}) {
  const toolSteps = options.toolSteps ?? 0;
  const toolCall =
    options.toolCall ?? ((n) => ({ name: 'read', arguments: { path: `f${n % 20}.txt` } }));
  const reply = options.reply ?? 'ok';
  let count = 0;
  const server = createServer((req, res) => {
    count += 1;
    const n = count;
    options.onRequest?.({ n, at: performance.now() });
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      options.onBody?.({ n, bytes: raw.length });
      let body = {};
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'bad json', type: 'invalid_request_error' } }));
        return;
      }
      const call = n <= toolSteps ? toolCall(n) : undefined;
      const turn = {
        id: `chatcmpl-${n}`,
        model: body.model ?? 'mock',
        text: call ? '' : reply,
        call: call && { id: `call_${n}`, name: call.name, args: JSON.stringify(call.arguments) },
      };
      if (body.stream) streamTurn(res, turn, Boolean(body.stream_options?.include_usage));
      else jsonTurn(res, turn);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: () => count,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const usage = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 };

function jsonTurn(res, turn) {
  const message = { role: 'assistant', content: turn.call ? null : turn.text, refusal: null };
  if (turn.call) {
    message.tool_calls = [
      {
        id: turn.call.id,
        type: 'function',
        function: { name: turn.call.name, arguments: turn.call.args },
      },
    ];
  }
  const body = {
    id: turn.id,
    object: 'chat.completion',
    created: CREATED,
    model: turn.model,
    choices: [
      { index: 0, message, logprobs: null, finish_reason: turn.call ? 'tool_calls' : 'stop' },
    ],
    usage,
  };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function streamTurn(res, turn, includeUsage) {
  const chunk = (choices, withUsage) =>
    `data: ${JSON.stringify({
      id: turn.id,
      object: 'chat.completion.chunk',
      created: CREATED,
      model: turn.model,
      choices,
      ...(includeUsage ? { usage: withUsage ?? null } : {}),
    })}\n\n`;
  const delta = (value, finish = null) =>
    chunk([{ index: 0, delta: value, logprobs: null, finish_reason: finish }]);
  let out = delta({ role: 'assistant', content: '' });
  if (turn.call) {
    out += delta({
      tool_calls: [
        {
          index: 0,
          id: turn.call.id,
          type: 'function',
          function: { name: turn.call.name, arguments: turn.call.args },
        },
      ],
    });
  } else {
    out += delta({ content: turn.text });
  }
  out += delta({}, turn.call ? 'tool_calls' : 'stop');
  if (includeUsage) out += chunk([], usage);
  out += 'data: [DONE]\n\n';
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.end(out);
}
