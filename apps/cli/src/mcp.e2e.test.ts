// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are the configuration format under test.
import { spawn } from 'node:child_process';
import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createTempWorkspace,
  type FakeLlmServer,
  processesWith,
  runCli,
  startFakeLlmServer,
  survivingProcesses,
  type TempWorkspace,
  toolResults,
} from '@tiny-claw/testkit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bin } from './__fixtures__/approval-cli.js';

// MCP servers as a user meets them: the protocol's own reference server (server-everything, not
// written here) configured in the user's mcp.json or a project's .mcp.json, the built CLI, and a
// loopback OpenAI-compatible model that asks for the server's tools.

const EVERYTHING = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

let llm: FakeLlmServer;
/** Whether bubblewrap works on this machine (what `TINY_CLAW_SANDBOX=auto` resolves to). */
let bwrap = false;
let ws: TempWorkspace;
let home: TempWorkspace;
/** Digits unique to the test, on every server's command line, to find its processes. */
let marker: string;

beforeAll(async () => {
  llm = await startFakeLlmServer();
  const probe = await createTempWorkspace({});
  const health = await runCli({
    bin,
    args: ['health', '--json'],
    cwd: probe.dir,
    env: { TINY_CLAW_STATE_DIR: probe.path('state'), TINY_CLAW_WORKDIR: probe.dir },
  });
  bwrap = (JSON.parse(health.stdout) as { sandbox: { active: string } }).sandbox.active === 'bwrap';
  await probe.cleanup();
});
afterAll(() => llm.close());
beforeEach(async () => {
  ws = await createTempWorkspace({ 'a.txt': 'alpha\n' });
  home = await createTempWorkspace({}, 'tiny-claw-mcp-home-');
  marker = `mcp-marker-${process.pid}-${Date.now()}`;
});
afterEach(async () => {
  for (const pid of await processesWith(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await ws.cleanup();
  await home.cleanup();
});

const everything = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [EVERYTHING, 'stdio', marker],
  ...extra,
});

async function writeJson(file: string, json: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(json));
}

const userMcp = (servers: Record<string, unknown>) =>
  writeJson(home.path('cfg/tiny-claw/mcp.json'), { mcpServers: servers });

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    XDG_CONFIG_HOME: home.path('cfg'),
    TINY_CLAW_STATE_DIR: home.path('state'),
    TINY_CLAW_WORKDIR: ws.dir,
    TINY_CLAW_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-test-not-a-real-key-000',
    OPENAI_BASE_URL: llm.openaiBaseUrl,
    TINY_CLAW_SANDBOX: 'off',
    ...extra,
  };
}

const cli = (args: string[], extra: Record<string, string> = {}) =>
  runCli({ bin, args, cwd: ws.dir, env: env(extra), timeoutMs: 60_000 });

/** The names of the tools the model was offered in request `index`. */
function offered(index: number): string[] {
  const body = llm.requests[index]?.body as { tools?: Array<{ function: { name: string } }> };
  return (body.tools ?? []).map((tool) => tool.function.name);
}

describe('MCP tools in a run', () => {
  it.for(['off', 'bwrap'])(
    'with TINY_CLAW_SANDBOX=%s the model’s call to mcp__everything__echo returns the echoed text to the model',
    async (sandbox, context) => {
      if (sandbox === 'bwrap' && !bwrap) context.skip();
      await userMcp({ everything: everything() });
      llm.enqueue(
        {
          kind: 'turn',
          toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'hello mcp' } }],
        },
        { kind: 'turn', text: 'done' },
      );
      const before = llm.requests.length;
      const result = await cli(['run', 'echo it', '--json'], {
        TINY_CLAW_APPROVAL_PROVIDER: 'off',
        TINY_CLAW_SANDBOX: sandbox,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(offered(before)).toContain('mcp__everything__echo');
      expect(toolResults(llm.requests[before + 1] as never).join('\n')).toContain(
        'Echo: hello mcp',
      );
      // The trace's tool.call span names the server that answered.
      const trace = JSON.parse(await readFile(JSON.parse(result.stdout).tracePath, 'utf8'));
      expect(toolCallSpans(trace.root)).toEqual([
        expect.objectContaining({ tool_name: 'mcp__everything__echo', tool_server: 'everything' }),
      ]);
      // The run is over: its server is gone.
      expect(await survivingProcesses(marker)).toEqual([]);
    },
  );

  it('an MCP tool call pauses for approval by default', async () => {
    await userMcp({ everything: everything() });
    llm.enqueue({
      kind: 'turn',
      toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'x' } }],
    });
    const result = await cli(['run', 'echo it', '--json']);
    expect(result.code, result.stderr).toBe(4);
    expect(JSON.parse(result.stdout)).toMatchObject({ stopReason: 'approval_required' });
  });

  it('denying mcp__everything__* hides its tools and refuses a call to one', async () => {
    await userMcp({ everything: everything() });
    llm.enqueue(
      { kind: 'turn', toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'x' } }] },
      { kind: 'turn', text: 'done' },
    );
    const before = llm.requests.length;
    const result = await cli(['run', 'echo it', '--json'], {
      TINY_CLAW_APPROVAL_PROVIDER: 'off',
      TINY_CLAW_TOOL_DENYLIST: 'mcp__everything__*',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(offered(before).filter((name) => name.startsWith('mcp__'))).toEqual([]);
    const observation = toolResults(llm.requests[before + 1] as never).join('\n');
    expect(observation).not.toContain('Echo: x');
    expect(observation).toMatch(/mcp__everything__echo/);
  });

  it('an answer after the call’s time limit is a timeout failure the model reads, and the run goes on', async () => {
    await userMcp({ everything: everything({ timeoutMs: 300 }) });
    llm.enqueue(
      {
        kind: 'turn',
        toolCalls: [
          {
            name: 'mcp__everything__trigger-long-running-operation',
            arguments: { duration: 5, steps: 5 },
          },
        ],
      },
      { kind: 'turn', text: 'it timed out' },
    );
    const before = llm.requests.length;
    const result = await cli(['run', 'go', '--json'], { TINY_CLAW_APPROVAL_PROVIDER: 'off' });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ stopReason: 'final', text: 'it timed out' });
    expect(toolResults(llm.requests[before + 1] as never).join('\n')).toMatch(
      /no answer within 300 ms/,
    );
  });

  it('a project’s .mcp.json in an untrusted folder starts nothing, with one notice naming it', async () => {
    const started = ws.path('started');
    await writeJson(ws.path('.mcp.json'), {
      mcpServers: {
        sneaky: {
          command: process.execPath,
          args: ['-e', `require('fs').writeFileSync(${JSON.stringify(started)}, 'x')`, marker],
        },
      },
    });
    const listed = await cli(['mcp', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({
      servers: [],
      untrusted: { file: ws.path('.mcp.json'), names: ['sneaky'] },
    });
    const notices = listed.stderr.split('\n').filter((line) => line.includes('sneaky'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(`tiny-claw trust ${ws.dir}`);
    await expect(access(started)).rejects.toThrow();
  });

  it('a stdio server gets none of the CLI’s environment beyond the safe variables and its own env', async () => {
    await userMcp({ everything: everything({ env: { GIVEN: 'yes' } }) });
    llm.enqueue(
      { kind: 'turn', toolCalls: [{ name: 'mcp__everything__get-env', arguments: {} }] },
      { kind: 'turn', text: 'done' },
    );
    const before = llm.requests.length;
    const result = await cli(['run', 'env', '--json'], {
      TINY_CLAW_APPROVAL_PROVIDER: 'off',
      UNRELATED_SECRET: 'do-not-pass-me',
    });
    expect(result.code, result.stderr).toBe(0);
    const observation = toolResults(llm.requests[before + 1] as never).join('\n');
    expect(observation).toContain('GIVEN');
    expect(observation).not.toContain('sk-test-not-a-real-key-000');
    expect(observation).not.toContain('do-not-pass-me');
  });

  it('a trusted project’s servers start', async () => {
    await writeJson(ws.path('.mcp.json'), { mcpServers: { proj: everything() } });
    const trust = await cli(['trust', ws.dir]);
    expect(trust.code, trust.stderr).toBe(0);
    const listed = await cli(['mcp', 'list', '--json']);
    const report = JSON.parse(listed.stdout) as { servers: Array<Record<string, unknown>> };
    expect(report.servers).toEqual([
      expect.objectContaining({ name: 'proj', origin: 'project', status: 'connected' }),
    ]);
  });
});

describe('tiny-claw mcp list and health', () => {
  it('list shows each server, its status and tools, never a secret; health shows the counts', async () => {
    await userMcp({
      everything: everything({ env: { EVERYTHING_TOKEN: '${MCP_E2E_TOKEN}' } }),
      gone: { command: ws.path('no-such-server') },
    });
    const secret = { MCP_E2E_TOKEN: 'very-secret-token-123' };
    const text = await cli(['mcp', 'list'], secret);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^everything {2}stdio {2}user \(.*mcp\.json\) {2}connected, \d+ tools$/m,
    );
    expect(text.stdout).toMatch(/^ {2}mcp__everything__echo$/m);
    expect(text.stdout).toMatch(/^gone {2}stdio {2}user .* failed: /m);
    const health = await cli(['health'], secret);
    expect(health.stdout).toMatch(/^mcp_servers=1 connected \(\d+ tools\), 1 failed$/m);
    expect(health.stdout).toMatch(/^tools=.*mcp__everything__echo/m);
    const json = await cli(['health', '--json'], secret);
    for (const output of [text, health, json]) {
      expect(output.stdout + output.stderr).not.toContain('very-secret-token-123');
    }
  });

  it.each([
    // echo is marked readOnlyHint by its server: a kept allow rule lets it run.
    ['mcp__everything__echo', 'allow'],
    // This one is not: the rule cannot lift its approval.
    ['mcp__everything__toggle-simulated-logging', 'approval_required'],
  ])(
    'a kept rule allowing mcp__everything__* makes policy check and run agree on %s: %s',
    async (tool, verdict) => {
      await userMcp({ everything: everything() });
      await writeJson(home.path('cfg/tiny-claw/rules.json'), {
        rules: [{ tool: 'mcp__everything__*', decision: 'allow' }],
      });
      try {
        const checked = await cli(['policy', 'check', '--tool', tool, '--json']);
        expect(checked.code, checked.stderr).toBe(0);
        expect(JSON.parse(checked.stdout)).toMatchObject({ verdict });
        llm.enqueue(
          { kind: 'turn', toolCalls: [{ name: tool, arguments: { message: 'hi' } }] },
          { kind: 'turn', text: 'done' },
        );
        const ran = await cli(['run', 'call it', '--json']);
        expect(JSON.parse(ran.stdout).stopReason, ran.stderr).toBe(
          verdict === 'allow' ? 'final' : 'approval_required',
        );
      } finally {
        await rm(home.path('cfg/tiny-claw/rules.json'), { force: true });
      }
    },
  );

  it('policy check judges an MCP tool: it needs approval', async () => {
    const result = await cli(['policy', 'check', '--tool', 'mcp__everything__echo', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ verdict: 'approval_required' });
  });
});

describe('server processes end with the CLI', () => {
  it.for(['off', 'bwrap'])(
    'with TINY_CLAW_SANDBOX=%s no server process is left after kill -9 of the CLI',
    async (sandbox, context) => {
      if (sandbox === 'bwrap' && !bwrap) context.skip();
      await userMcp({ everything: everything() });
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      llm.enqueue({ kind: 'stall', until: held });
      const before = llm.requests.length;
      const child = spawn(process.execPath, [bin, 'run', 'go'], {
        cwd: ws.dir,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: home.dir,
          ...env({ TINY_CLAW_SANDBOX: sandbox }),
        },
        stdio: 'ignore',
      });
      const exited = new Promise((done) => child.once('close', done));
      try {
        // The model call has started, so the server is running.
        await llm.received(before + 1);
        const running = await commandLines(marker);
        expect(running).not.toEqual([]);
        // In the sandbox the server runs under bubblewrap, in a PID namespace of its own.
        expect(running.some((line) => line.includes('--unshare-pid'))).toBe(sandbox === 'bwrap');
        child.kill('SIGKILL');
        await exited;
        expect(await survivingProcesses(marker)).toEqual([]);
      } finally {
        child.kill('SIGKILL');
        release();
      }
    },
  );
});

async function commandLines(text: string): Promise<string[]> {
  const lines: string[] = [];
  for (const pid of await processesWith(text)) {
    try {
      lines.push((await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' '));
    } catch {
      // Gone meanwhile.
    }
  }
  return lines;
}

interface Span {
  kind: string;
  attributes: Record<string, unknown>;
  children: Span[];
}

function toolCallSpans(span: Span): Record<string, unknown>[] {
  const own = span.kind === 'tool.call' ? [span.attributes] : [];
  return [...own, ...span.children.flatMap(toolCallSpans)];
}
