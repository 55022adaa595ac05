import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createTempWorkspace, runCli, type TempWorkspace, writeScript } from '@tiny-claw/testkit';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bin } from './__fixtures__/approval-cli.js';
import { type CliSandbox, cliSandbox } from './__fixtures__/cli-sandbox.js';

// A host process serving a unix socket, as a user's agent meets it: the built CLI with the
// scripted provider runs one bash call that tries to send a marker to the socket. With the
// network off (the default) the sandbox may not create unix sockets, so the server receives
// nothing and the model is told why and which setting would allow it.

const MARK = 'MARK-FROM-THE-SANDBOX';

let ws: TempWorkspace;
let outside: TempWorkspace;
/** Where the host socket lives: outside the workdir and outside /tmp, which the sandbox replaces. */
let socketDir: string;
let server: Server;
let received: string;
let connections: number;
let sandbox: CliSandbox;

function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    TINY_CLAW_STATE_DIR: outside.path('state'),
    TINY_CLAW_WORKDIR: ws.dir,
    TINY_CLAW_ENABLED_TOOLS: 'bash',
    // About the sandbox, not approval: the bash call must run without a question.
    TINY_CLAW_APPROVAL_PROVIDER: 'off',
    ...extra,
  };
}

beforeAll(async () => {
  sandbox = await cliSandbox();
});

beforeEach(async () => {
  ws = await createTempWorkspace({});
  outside = await createTempWorkspace({}, 'tiny-claw-unix-');
  socketDir = existsSync('/var/tmp')
    ? await realpath(await mkdtemp('/var/tmp/tiny-claw-unix-'))
    : ws.dir;
  received = '';
  connections = 0;
  server = createServer((socket) => {
    connections += 1;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(join(socketDir, 'host.sock'), resolve));
});

afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (socketDir !== ws.dir) await rm(socketDir, { recursive: true, force: true });
  await ws.cleanup();
  await outside.cleanup();
});

/** Node is everywhere the CLI runs; the sandbox sees its binary read-only. */
function sendMarkTo(socketPath: string): string {
  return `'${process.execPath}' -e "const c = require('net').connect({ path: '${socketPath}' }, () => c.end('${MARK}')); c.on('error', (e) => { console.error(String(e)); process.exit(1); })"`;
}

/** What the model was told about each tool call, read from the run's trace (replay mode keeps it). */
async function toolObservations(tracePath: string): Promise<string[]> {
  type Span = { attributes: Record<string, unknown>; children?: Span[] };
  const trace = JSON.parse(await readFile(tracePath, 'utf8')) as { root: Span };
  const found: string[] = [];
  const walk = (span: Span) => {
    const observation = span.attributes.tool_observation;
    if (typeof observation === 'string') found.push(observation);
    for (const child of span.children ?? []) walk(child);
  };
  walk(trace.root);
  return found;
}

async function runBash(command: string, env: Record<string, string> = {}) {
  const script = await writeScript(outside.dir, {
    turns: [{ tool_calls: [{ name: 'bash', arguments: { command } }] }, { text: 'done' }],
  });
  const cli = await runCli({
    bin,
    args: ['run', 'go', '--json'],
    cwd: ws.dir,
    env: baseEnv({
      TINY_CLAW_PROVIDER: 'scripted',
      TINY_CLAW_SCRIPT: script,
      TINY_CLAW_TRACE_MODE: 'replay',
      ...env,
    }),
    timeoutMs: 60_000,
  });
  expect(cli.code, cli.stderr).toBe(0);
  const result = JSON.parse(cli.stdout) as { tracePath: string };
  return { cli, observations: await toolObservations(result.tracePath) };
}

describe('a host unix socket and the sandboxed bash of the CLI', () => {
  it('with the network off, the command cannot send to it: the server receives nothing and the tool result says the connection was not permitted', async (context) => {
    if (sandbox.active !== 'bwrap' || sandbox.reason.includes('stay reachable')) {
      context.skip(`no unix-socket filter here: ${sandbox.reason}`);
    }
    const socketPath = join(socketDir, 'host.sock');
    const { cli, observations } = await runBash(sendMarkTo(socketPath));
    expect(cli.stderr).toContain('← bash failed');
    expect(observations).toHaveLength(1);
    expect(observations[0]).toContain(`connect EPERM ${socketPath}`);
    expect(observations[0]).toContain('TINY_CLAW_SANDBOX_NETWORK=on');
    await delay(200);
    expect(connections).toBe(0);
    expect(received).toBe('');
  });

  it('with the network on, the same command reaches it', async (context) => {
    if (sandbox.active !== 'bwrap')
      context.skip(`bubblewrap is not usable here: ${sandbox.reason}`);
    const { cli } = await runBash(sendMarkTo(join(socketDir, 'host.sock')), {
      TINY_CLAW_SANDBOX_NETWORK: 'on',
    });
    expect(cli.stderr).toContain('← bash ok');
    const deadline = Date.now() + 5_000;
    while (!received.includes(MARK) && Date.now() < deadline) await delay(20);
    expect(received).toBe(MARK);
  });
});
