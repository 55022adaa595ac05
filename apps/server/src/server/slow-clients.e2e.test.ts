import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_PATH, type Harness, startHarness } from '../__fixtures__/harness.js';

// Slow clients against the real server on loopback, over raw sockets: a client that sends its
// request a byte at a time, or never finishes it, must be cut off at the limit, not held forever.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/tiny-claw-server.js');

/** Short limits for the in-process server, so the tests take seconds. */
const LIMITS = { headersTimeoutMs: 500, requestTimeoutMs: 1_500, keepAliveTimeoutMs: 300 };
/**
 * How late past its limit a connection may be closed: Node's check interval (half the header
 * timeout here) plus generous slack for a busy machine. Without the limits a connection stays open
 * for minutes (Node's defaults are 60 s for headers, 300 s for a request), so this still tells the
 * two apart without failing on a loaded CI machine.
 */
const SLACK_MS = 5_000;

let harness: Harness | undefined;
let ws: TempWorkspace | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  child?.kill('SIGKILL');
  await harness?.close();
  await ws?.cleanup();
  harness = undefined;
  ws = undefined;
  child = undefined;
});

interface SlowClient {
  socket: Socket;
  /** Resolves to the milliseconds from connecting to the server closing the connection. */
  closed: Promise<number>;
  received(): string;
}

/** A connection that writes `opening`, then `trickle` one byte every `everyMs` until it is closed. */
function slowClient(url: string, opening: string, trickle = '', everyMs = 50): SlowClient {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const started = Date.now();
  let received = '';
  let sent = 0;
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    received += chunk;
  });
  socket.on('error', () => {});
  if (opening) socket.write(opening);
  const timer = trickle
    ? setInterval(() => {
        if (!socket.destroyed) socket.write(trickle[sent++ % trickle.length] as string);
      }, everyMs)
    : undefined;
  const closed = new Promise<number>((done) =>
    socket.on('close', () => {
      clearInterval(timer);
      done(Date.now() - started);
    }),
  );
  return { socket, closed, received: () => received };
}

const slowHeaders = (url: string) =>
  slowClient(url, 'GET /health HTTP/1.1\r\nHost: x\r\n', `X-Slow: ${'a'.repeat(200)}`);

const slowBody = (url: string) =>
  slowClient(
    url,
    `POST ${EVENT_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"a":"`,
    'b',
  );

describe('slow clients', () => {
  it('cuts off 150 connections that send their headers a byte at a time and 50 that send nothing, with 408, at the header timeout, while /health still answers', async () => {
    harness = await startHarness({ httpLimits: LIMITS });
    const url = harness.server.url;
    const clients = [
      ...Array.from({ length: 150 }, () => slowHeaders(url)),
      ...Array.from({ length: 50 }, () => slowClient(url, '')),
    ];
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const times = await Promise.all(clients.map((client) => client.closed));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 50);
    expect(Math.max(...times)).toBeLessThan(LIMITS.headersTimeoutMs + SLACK_MS);
    for (const client of clients) expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts off 100 Feishu event posts whose body never ends, with 408, at the request timeout', async () => {
    harness = await startHarness({ httpLimits: LIMITS });
    const clients = Array.from({ length: 100 }, () => slowBody(harness?.server.url as string));
    const times = await Promise.all(clients.map((client) => client.closed));
    // Past the header timeout (the headers came at once), within the request timeout.
    expect(Math.min(...times)).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 50);
    expect(Math.max(...times)).toBeLessThan(LIMITS.requestTimeoutMs + SLACK_MS);
    for (const client of clients) expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(harness.feishu.messages).toEqual([]);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    harness = await startHarness({ httpLimits: LIMITS });
    const client = slowClient(harness.server.url, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    const time = await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(time).toBeLessThan(LIMITS.keepAliveTimeoutMs + SLACK_MS + 1_000);
  });

  it('answers a header block over 16 KiB with 431', async () => {
    harness = await startHarness();
    const client = slowClient(
      harness.server.url,
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
    );
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 431 /);
  });

  it('the server process, with its default limits, answers keep-alive for 5 s and cuts off a slow-header connection after 10 s', {
    timeout: 30_000,
  }, async () => {
    ws = await createTempWorkspace();
    const url = await startServerProcess(ws);
    const health = slowClient(url, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    const slow = slowHeaders(url);
    await expect.poll(() => health.received(), { timeout: 5_000 }).toMatch(/\r\n\r\n/);
    expect(health.received()).toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\nKeep-Alive: timeout=5\r\n/i);
    health.socket.destroy();
    const time = await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(time).toBeGreaterThanOrEqual(10_000 - 50);
    expect(time).toBeLessThan(10_000 + 1_000 + SLACK_MS);
  });
});

/** Start `tiny-claw-server` on a free loopback port; resolves to its URL once it listens. */
async function startServerProcess(workspace: TempWorkspace): Promise<string> {
  const proc = spawn(process.execPath, [bin, '--host', '127.0.0.1', '--port', '0'], {
    cwd: workspace.dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: workspace.dir,
      TINY_CLAW_STATE_DIR: workspace.path('.state'),
      TINY_CLAW_WORKDIR: workspace.dir,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child = proc;
  let stderr = '';
  return new Promise((resolve, reject) => {
    proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (listening) resolve(listening[1] as string);
    });
    proc.on('exit', (code) => reject(new Error(`the server exited with ${code}: ${stderr}`)));
  });
}
