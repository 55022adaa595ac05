// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are the configuration format under test.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tool, ToolContext } from '@tiny-claw/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpToolList, mcpTools } from './mcp-tools.js';

// These tests drive servers written by others (the protocol's own reference servers), over stdio
// and over Streamable HTTP, so the client is checked against the protocol and not against itself.

const serverBin = (name: string, file: string) =>
  fileURLToPath(
    new URL(`../node_modules/@modelcontextprotocol/${name}/dist/${file}`, import.meta.url),
  );
const EVERYTHING = serverBin('server-everything', 'index.js');
const FILESYSTEM = serverBin('server-filesystem', 'index.js');

function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { workdir: process.cwd(), signal, toolCallId: 'call_1', visibleTools: [] };
}

function tool(list: McpToolList, name: string): Tool {
  const found = list.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name} among ${list.map((t) => t.name).join(', ')}`);
  return found;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

let files: string;
let http: ChildProcess;
let port: number;
let list: McpToolList;

beforeAll(async () => {
  files = await mkdtemp(join(tmpdir(), 'mcp-fs-'));
  await writeFile(join(files, 'note.txt'), 'hello from the filesystem server\n');
  port = await freePort();
  http = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    http.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('listening on port')) resolve();
    });
    http.once('exit', (code) => reject(new Error(`the HTTP server exited (${code}): ${seen}`)));
  });
  list = await mcpTools({
    servers: {
      everything: { command: process.execPath, args: [EVERYTHING] },
      web: {
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { Authorization: 'Bearer ${MCP_TEST_TOKEN}' },
      },
      files: { command: process.execPath, args: [FILESYSTEM, files] },
      broken: { command: join(files, 'no-such-program') },
      unset: { url: 'http://127.0.0.1:1/mcp', headers: { 'X-Key': '${MCP_TEST_UNSET}' } },
    },
    env: { ...process.env, MCP_TEST_TOKEN: 'secret-token-value' },
    callTimeoutMs: 10_000,
  });
});

afterAll(async () => {
  await list?.close();
  http?.kill();
  await rm(files, { recursive: true, force: true });
});

describe('tools of real servers', () => {
  it.each([
    ['everything', 'mcp__everything__echo'],
    ['web', 'mcp__web__echo'],
    ['files', 'mcp__files__read_text_file'],
  ])('server %s is connected and its tools are named mcp__<server>__<tool>', (server, name) => {
    const state = list.servers.find((entry) => entry.name === server);
    expect(state?.status).toBe('connected');
    expect(state?.tools).toContain(name);
  });

  it.each(['mcp__everything__echo', 'mcp__web__echo'])(
    '%s returns the echoed text as the observation',
    async (name) => {
      const echo = tool(list, name);
      const output = await echo.run(echo.parse({ message: 'ping 42' }), context());
      expect(output).toMatchObject({ isError: false, content: 'Echo: ping 42' });
    },
  );

  it('every tool schema is a plain object schema both providers accept', () => {
    for (const each of list) {
      expect(each.parameters.type).toBe('object');
      expect(each.parameters).toHaveProperty('properties');
      expect(each.parameters).not.toHaveProperty('$schema');
      for (const key of ['anyOf', 'oneOf', 'allOf', 'not', 'enum'])
        expect(each.parameters).not.toHaveProperty(key);
    }
  });

  it('a tool the server marks readOnlyHint is read-only, one it does not is not', () => {
    const everything = list.servers.find((entry) => entry.name === 'everything');
    expect(everything?.readOnlyHints).toContain('mcp__everything__echo');
    expect(tool(list, 'mcp__everything__echo').readOnly).toBe(true);
    expect(tool(list, 'mcp__files__write_file').readOnly).toBe(false);
  });

  it('an image becomes a note, never pixels in the text', async () => {
    const image = tool(list, 'mcp__everything__get-tiny-image');
    const output = await image.run({}, context());
    expect(output.isError).toBe(false);
    expect(output.content).toMatch(/\[image image\/png, \d+ bytes, not shown\]/);
  });

  it('structured content reaches the observation', async () => {
    const structured = tool(list, 'mcp__everything__get-structured-content');
    const output = await structured.run({ location: 'New York' }, context());
    expect(output.isError).toBe(false);
    expect(output.content).toContain('temperature');
  });

  it('the filesystem server reads a file in its allowed directory', async () => {
    const read = tool(list, 'mcp__files__read_text_file');
    const output = await read.run({ path: join(files, 'note.txt') }, context());
    expect(output).toMatchObject({ isError: false, content: 'hello from the filesystem server\n' });
  });

  it('a path outside the allowed directory is the server’s error, a failed observation', async () => {
    const read = tool(list, 'mcp__files__read_text_file');
    const output = await read.run({ path: '/etc/hostname' }, context());
    expect(output.isError).toBe(true);
    expect(output.failure?.kind).toBe('command_failed');
  });

  it('arguments the server rejects are a failed observation, not an exception', async () => {
    const echo = tool(list, 'mcp__everything__echo');
    const output = await echo.run({ message: 42 }, context());
    expect(output.isError).toBe(true);
  });

  it.each([
    ['broken', /no-such-program|ENOENT/],
    ['unset', /MCP_TEST_UNSET/],
  ])('server %s that cannot start is failed with the reason, the others unharmed', (name, why) => {
    const state = list.servers.find((entry) => entry.name === name);
    expect(state).toMatchObject({ status: 'failed', tools: [] });
    expect(state?.error).toMatch(why);
  });

  it('no state or error shows a secret from a variable', () => {
    expect(JSON.stringify(list.servers)).not.toContain('secret-token-value');
  });
});

describe('calls that get no usable answer', () => {
  it('an answer after the call’s time limit is a timeout failure, and the server answers the next call', async () => {
    const slow = await mcpTools({
      servers: { slow: { command: process.execPath, args: [EVERYTHING], timeoutMs: 300 } },
    });
    try {
      const long = tool(slow, 'mcp__slow__trigger-long-running-operation');
      const output = await long.run({ duration: 5, steps: 5 }, context());
      expect(output.failure?.kind).toBe('timeout');
      const echo = tool(slow, 'mcp__slow__echo');
      expect((await echo.run({ message: 'still here' }, context())).content).toBe(
        'Echo: still here',
      );
    } finally {
      await slow.close();
    }
  });

  it('the run’s cancellation ends the call as cancelled', async () => {
    const long = tool(list, 'mcp__everything__trigger-long-running-operation');
    const controller = new AbortController();
    const pending = long.run({ duration: 30, steps: 30 }, context(controller.signal));
    controller.abort();
    expect((await pending).failure?.kind).toBe('cancelled');
  });

  it('a server that exits mid-call is an execution failure, and so is every later call', async () => {
    const dying = await mcpTools({
      servers: { dying: { command: process.execPath, args: [EVERYTHING] } },
    });
    try {
      const long = tool(dying, 'mcp__dying__trigger-long-running-operation');
      const pending = long.run({ duration: 30, steps: 30 }, context());
      const pid = serverPid(dying);
      process.kill(pid, 'SIGKILL');
      const output = await pending;
      expect(output.failure).toMatchObject({ kind: 'execution_error', code: 'server_unavailable' });
      const again = await tool(dying, 'mcp__dying__echo').run({ message: 'x' }, context());
      expect(again.failure).toMatchObject({ kind: 'execution_error', code: 'server_unavailable' });
    } finally {
      await dying.close();
    }
  });
});

function serverPid(list: McpToolList): number {
  const pid = list.servers[0]?.pid;
  if (pid === undefined) throw new Error('the server has no process id');
  return pid;
}
