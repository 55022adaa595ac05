import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createTempWorkspace,
  type RecordedRequest,
  runCli,
  startFakeLlmServer,
  type TempWorkspace,
  toolResults,
  writeScript,
} from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The explorer as a user meets it: the real CLI, the scripted provider playing both the parent and
// the child (the child's turns come in between the parent's), and the files it leaves behind.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

const SENTINEL = 'SENTINEL-5d1e-ONLY-IN-PORTS-FILE';

let ws: TempWorkspace;
let home: TempWorkspace;

beforeEach(async () => {
  ws = await createTempWorkspace({
    'config.ts': 'export const port = readPort(); // PARENT-NEVER-SEES-THIS\n',
    'ports.ts': `export const PORT = 8431; // ${SENTINEL}\n`,
  });
  home = await createTempWorkspace({});
});
afterEach(async () => {
  await ws.cleanup();
  await home.cleanup();
});

type Turn = {
  text?: string;
  tool_calls?: Array<{ id?: string; name: string; arguments: Record<string, unknown> }>;
};

const stateDir = () => join(home.dir, '.state');

async function runScript(turns: Turn[], env: Record<string, string> = {}) {
  const script = await writeScript(home.dir, { turns }, `script-${Date.now()}.json`);
  return runCli({
    bin,
    args: ['run', 'where is the port set?', '--json'],
    cwd: ws.dir,
    env: {
      TINY_CLAW_STATE_DIR: stateDir(),
      TINY_CLAW_WORKDIR: ws.dir,
      TINY_CLAW_PROVIDER: 'scripted',
      TINY_CLAW_SCRIPT: script,
      TINY_CLAW_ENABLED_TOOLS: 'explore',
      TINY_CLAW_TRACE_MODE: 'metadata',
      ...env,
    },
    timeoutMs: 60_000,
  });
}

interface Span {
  kind: string;
  name: string;
  attributes: Record<string, unknown>;
  children: Span[];
}

const explore = (args: Record<string, unknown>): Turn => ({
  tool_calls: [{ id: 'p1', name: 'explore', arguments: args }],
});
const read = (path: string): Turn => ({ tool_calls: [{ name: 'read', arguments: { path } }] });

async function memoryLines(sessionKey: string): Promise<string> {
  return readFile(join(stateDir(), 'sessions', sessionKey, 'memory.jsonl'), 'utf8').catch(() => '');
}

/** Whether a request is the parent's (its first user message is the run's prompt). */
function isParent(request: RecordedRequest): boolean {
  const body = request.body as { messages?: Array<{ role: string; content: unknown }> };
  return body.messages?.find((m) => m.role === 'user')?.content === 'where is the port set?';
}

describe('the explore tool with a loopback model behind the real OpenAI client', () => {
  it('lets the child read a file the parent may not, and brings its fact to the parent only through the report', async () => {
    const server = await startFakeLlmServer();
    try {
      server.enqueue(
        {
          kind: 'turn',
          toolCalls: [{ id: 'p1', name: 'explore', arguments: { task: 'Find the port' } }],
        },
        { kind: 'turn', toolCalls: [{ name: 'read', arguments: { path: 'ports.ts' } }] },
        // Neither answer names the sentinel: the child repeats what its read returned, the parent
        // what the explorer reported. It reaches stdout only if the read worked.
        { kind: 'reply', reply: (r) => ({ text: `child saw: ${toolResults(r).at(-1) ?? ''}` }) },
        { kind: 'reply', reply: (r) => ({ text: `parent got: ${toolResults(r).at(-1) ?? ''}` }) },
      );
      const result = await runCli({
        bin,
        args: ['run', 'where is the port set?', '--json'],
        cwd: ws.dir,
        env: {
          TINY_CLAW_STATE_DIR: stateDir(),
          TINY_CLAW_WORKDIR: ws.dir,
          TINY_CLAW_PROVIDER: 'openai',
          OPENAI_API_KEY: 'sk-test-not-a-real-key-000',
          OPENAI_BASE_URL: server.openaiBaseUrl,
          TINY_CLAW_ENABLED_TOOLS: 'explore',
        },
        timeoutMs: 60_000,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/\[subagent_session=[^\]]+\] ← read ok/);
      const json = JSON.parse(result.stdout) as { text: string };
      expect(json.text).toMatch(/^parent got: \[Explorer Subagent Report\]/);
      expect(json.text).toContain(`export const PORT = 8431; // ${SENTINEL}`);

      const parent = server.requests.filter(isParent);
      expect(parent).toHaveLength(2);
      const offered = (r: RecordedRequest) =>
        ((r.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map(
          (t) => t.function.name,
        );
      expect(parent.map(offered)).toEqual([['explore'], ['explore']]);
      // The parent's model sees the file's fact once, inside the explore call's answer.
      const last = parent[1]?.body as { messages?: Array<Record<string, unknown>> } | undefined;
      const parentMessages = last?.messages ?? [];
      const carrying = parentMessages.filter((m) => JSON.stringify(m).includes(SENTINEL));
      expect(carrying).toEqual([expect.objectContaining({ role: 'tool', tool_call_id: 'p1' })]);
      const child = server.requests.filter((r) => !isParent(r));
      expect(child.map(offered)).toEqual([['read'], ['read']]);
    } finally {
      await server.close();
    }
  });
});

describe('the explore tool through the CLI', () => {
  it('answers with what only the child read, while the parent only ever had explore', async () => {
    const result = await runScript([
      explore({ task: 'Find where the port number is defined' }),
      read('config.ts'),
      read('ports.ts'),
      { text: `PORT is 8431 in ports.ts:1 (${SENTINEL}).` },
      { text: `The port is set in ports.ts (${SENTINEL}).` },
    ]);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as {
      text: string;
      sessionKey: string;
      tracePath: string;
    };
    expect(json.text).toContain(SENTINEL);

    // The child's tool lines are tagged with its session on stderr.
    expect(result.stderr).toMatch(/\[subagent_session=parent-[^\]]+-explore-[0-9a-f]{12}\] → read/);
    // Both of the child's reads worked, though the parent was never given read.
    expect(result.stderr.match(/\[subagent_session=[^\]]+\] ← read ok/g)).toHaveLength(2);
    expect(result.stderr).not.toContain('read failed');

    // The trace nests the child under the explore call, and the parent step offered one tool.
    const trace = JSON.parse(await readFile(json.tracePath, 'utf8')) as { root: Span };
    const parentStep = trace.root.children[0];
    expect(parentStep?.attributes.visible_tools).toBe(1);
    const exploreCall = parentStep?.children.find((span) => span.kind === 'tool.call');
    expect(exploreCall?.name).toBe('tool.explore');
    const child = exploreCall?.children.find((span) => span.kind === 'subagent.run');
    expect(child).toBeDefined();
    const childSpans = (child?.children ?? []).flatMap((step) =>
      step.children.map((span) => span.name),
    );
    expect(childSpans.filter((name) => name === 'tool.read')).toHaveLength(2);
    expect(childSpans.some((name) => name.startsWith('llm.'))).toBe(true);

    // The child's memory holds the task and the report; the parent's holds neither the child's reads nor its task.
    const sessions = await readdir(join(stateDir(), 'sessions'));
    const childKey = sessions.find((name) => name.includes('-explore-')) ?? '';
    expect(childKey.startsWith(`parent-${json.sessionKey}-explore-`)).toBe(true);
    const childMemory = await memoryLines(childKey);
    expect(childMemory).toContain('Find where the port number is defined');
    expect(childMemory).toContain('[Explorer Subagent Report]');
    const parentMemory = await memoryLines(json.sessionKey);
    expect(parentMemory).toContain('where is the port set?');
    expect(parentMemory).not.toContain('PARENT-NEVER-SEES-THIS');
    expect(parentMemory).not.toContain('Find where the port number is defined');
  });

  it('cannot read either when read is on the deny list, and its report says so', async () => {
    const result = await runScript(
      [
        explore({ task: 'Find the port' }),
        read('ports.ts'),
        { text: 'I could not read anything.' },
        { text: 'No answer.' },
      ],
      { TINY_CLAW_TOOL_DENYLIST: 'read' },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr + result.stdout).not.toContain(SENTINEL);
    const sessions = await readdir(join(stateDir(), 'sessions'));
    const childKey = sessions.find((name) => name.includes('-explore-')) ?? '';
    expect(await memoryLines(childKey)).toContain('the explorer had no read-only tools');
    expect(result.stderr).toMatch(/\[subagent_session=[^\]]+\] ← read failed/);
  });

  it('refuses max_steps 13 naming the limit, and ends a child that never answers with the paths it checked', async () => {
    const refused = await runScript([
      explore({ task: 'Find the port', max_steps: 13 }),
      { text: 'ok' },
    ]);
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stderr).toMatch(/← explore failed: .*max_steps may be at most 12/);

    const exhausted = await runScript([
      explore({ task: 'Find the port', max_steps: 2 }),
      read('config.ts'),
      read('ports.ts'),
      { text: 'gave up' },
    ]);
    expect(exhausted.code, exhausted.stderr).toBe(0);
    const sessions = await readdir(join(stateDir(), 'sessions'));
    const childKey = sessions.find((name) => name.includes('-explore-')) ?? '';
    const report = await memoryLines(childKey);
    expect(report).toContain('stop_reason=max_steps_exhausted');
    expect(report).toContain('read {\\"path\\":\\"config.ts\\"}');
    expect(report).toContain('read {\\"path\\":\\"ports.ts\\"}');
  });
});
