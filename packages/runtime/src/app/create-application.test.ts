import { readFile, rm } from 'node:fs/promises';
import { ConfigurationError, resolveSession } from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { sandboxStatus, WORKSPACE_TOOL_NAMES } from '@tiny-claw/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../settings/load-settings.js';
import { TOOL_NAMES } from '../settings/value-schemas.js';
import { createApplication } from './create-application.js';
import { RUNTIME_VERSION } from './version.js';

let ws: TempWorkspace;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

beforeEach(async () => {
  ws = await createTempWorkspace({ 'a.txt': 'alpha\n' });
});
afterEach(() => ws.cleanup());

const settingsWith = (env: Record<string, string> = {}) =>
  loadSettings({
    env: { TINY_CLAW_STATE_DIR: ws.path('.state'), TINY_CLAW_WORKDIR: ws.dir, ...env },
    cwd: ws.dir,
    homeDir: ws.dir,
  });

describe('createApplication', () => {
  it('picks echo when no key is configured and says why', async () => {
    const app = await createApplication(settingsWith(), { logger: silent });
    const health = app.health();
    expect(health.provider).toEqual({
      name: 'echo',
      reason: 'auto: no OPENAI_API_KEY or ANTHROPIC_API_KEY configured, using the echo provider',
      model: 'echo',
    });
    expect(health.tools).toEqual(['read']);
    expect(health.workdir).toBe(ws.dir);
    expect((await app.run({ prompt: 'hello' })).text).toBe('hello');
  });

  it('loads the scripted provider from TINY_CLAW_SCRIPT and rejects a bad script at start-up', async () => {
    await ws.write('script.json', JSON.stringify({ turns: [{ text: 'scripted answer' }] }));
    const app = await createApplication(
      settingsWith({ TINY_CLAW_PROVIDER: 'scripted', TINY_CLAW_SCRIPT: 'script.json' }),
      {
        logger: silent,
      },
    );
    expect((await app.run({ prompt: 'x' })).text).toBe('scripted answer');
    await ws.write('bad.json', '{"turns": 3}');
    await expect(
      createApplication(
        settingsWith({ TINY_CLAW_PROVIDER: 'scripted', TINY_CLAW_SCRIPT: 'bad.json' }),
        { logger: silent },
      ),
    ).rejects.toThrow(ConfigurationError);
  });

  it('shows and enforces the same tool set: a denied tool is neither offered nor run', async () => {
    const provider = new ScriptedProvider({
      turns: [{ tool_calls: [{ name: 'read', arguments: { path: 'a.txt' } }] }, { text: 'done' }],
    });
    const app = await createApplication(settingsWith({ TINY_CLAW_TOOL_DENYLIST: 'read' }), {
      provider,
      logger: silent,
    });
    expect(app.health().tools).toEqual([]);
    await app.run({ prompt: 'x' });
    expect(provider.requests[0]?.tools).toEqual([]);
    const observation = provider.requests[1]?.messages.find((m) => m.role === 'tool');
    expect(observation?.content).toContain('tool call denied by policy: read is on the deny list');
    expect(observation?.isError).toBe(true);
    expect(observation?.content).not.toContain('alpha');
  });

  it('keeps tiny-claw’s own settings out of the tools’ reach: the config folder and the trust list', async () => {
    await ws.write('.config/tiny-claw/.env', 'OPENAI_API_KEY=sk-config-secret\n');
    await ws.write('.state/trusted-folders.json', '{"version":1,"folders":[]}');
    const provider = new ScriptedProvider({
      turns: [
        {
          tool_calls: [
            { name: 'read', arguments: { path: '.config/tiny-claw/.env' } },
            { name: 'read', arguments: { path: '.state/trusted-folders.json' } },
            { name: 'write', arguments: { path: '.config/tiny-claw/mcp.json', content: '{}' } },
          ],
        },
        { text: 'done' },
      ],
    });
    const app = await createApplication(
      settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'read,write', TINY_CLAW_APPROVAL_PROVIDER: 'off' }),
      { provider, logger: silent },
    );
    await app.run({ prompt: 'x' });
    const observations = provider.requests[1]?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(observations).toHaveLength(3);
    for (const observation of observations) {
      expect(observation.content).toContain('tiny-claw keeps its own settings');
      expect(observation.content).not.toContain('sk-config-secret');
    }
  });

  it('refuses an enabled tool this version cannot build, naming what is available', () => {
    expect(() => settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'read,search' })).toThrow(
      /TINY_CLAW_ENABLED_TOOLS="read,search" is invalid: unknown tool "search"; expected a comma-separated list of: bash, edit, explore, read, write/,
    );
  });

  it('accepts in settings exactly the tools this version builds: the workspace tools and explore', () => {
    expect([...TOOL_NAMES]).toEqual([...WORKSPACE_TOOL_NAMES, 'explore'].sort());
  });

  it('shows the model only explore when it is the one tool enabled, and the explorer may still read', async () => {
    const app = await createApplication(settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'explore' }), {
      logger: silent,
    });
    expect(app.health().tools).toEqual(['explore']);
    const denied = await createApplication(
      settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'explore,read', TINY_CLAW_TOOL_DENYLIST: 'read' }),
      { logger: silent },
    );
    expect(denied.health().tools).toEqual(['explore']);
  });

  it('registers no tools when TINY_CLAW_ENABLED_TOOLS is empty', async () => {
    const app = await createApplication(settingsWith({ TINY_CLAW_ENABLED_TOOLS: '' }), {
      logger: silent,
    });
    expect(app.health().tools).toEqual([]);
  });

  it('fails at start-up with a configuration error naming the setting when the workdir does not exist', async () => {
    await expect(
      createApplication(settingsWith({ TINY_CLAW_WORKDIR: ws.path('missing') }), {
        logger: silent,
      }),
    ).rejects.toThrow(/does not exist: set TINY_CLAW_WORKDIR or --workdir/);
  });

  it('fails a run with the same message when the workdir disappears after start-up', async () => {
    await ws.write('gone/keep.txt', 'x');
    const app = await createApplication(settingsWith({ TINY_CLAW_WORKDIR: ws.path('gone') }), {
      logger: silent,
    });
    await rm(ws.path('gone'), { recursive: true });
    await expect(app.run({ prompt: 'x' })).rejects.toThrow(/does not exist: set TINY_CLAW_WORKDIR/);
  });

  it('writes the run to the session memory under the state dir', async () => {
    const app = await createApplication(settingsWith(), { logger: silent });
    const result = await app.run({ prompt: 'note this', session: 'work' });
    const memory = await readFile(
      ws.path(`.state/sessions/${result.sessionKey}/memory.jsonl`),
      'utf8',
    );
    expect(memory).toContain('"last_prompt"');
    expect(memory).toContain('note this');
    expect(result.sessionKey).toMatch(/^cli-[0-9a-f]{12}-work$/);
  });

  it('sends the workdir’s AGENTS.md and skills, and the selected skill narrows the tools', async () => {
    await ws.write('AGENTS.md', 'Always answer in British English, mate.\n');
    await ws.write(
      '.claw/skills/review/SKILL.md',
      '---\nname: review\ndescription: Review code\nallowed-tools: read\n---\nReview $ARGUMENTS.\n',
    );
    const provider = new ScriptedProvider({ turns: [{ text: 'ok' }] });
    const app = await createApplication(
      settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'read,write', TINY_CLAW_APPROVAL_PROVIDER: 'off' }),
      { provider, logger: silent },
    );
    await app.run({ prompt: '$review src/a.ts' });
    const system = provider.requests[0]?.messages.filter((m) => m.role === 'system') ?? [];
    expect(system.map((m) => m.content.split('\n')[0])).toEqual([
      'You are Tiny Claw, a coding agent working inside one workspace directory through the tools you are given.',
      'Project instructions from AGENTS.md. These instructions have higher priority than skills and lower priority than Tiny Claw core rules.',
      'Available project skills from .claw/skills.',
      'Active skill (explicit): review',
    ]);
    expect(system[1]?.content).toContain('Always answer in British English, mate.');
    expect(system[3]?.content).toContain('Review src/a.ts.');
    expect(provider.requests[0]?.tools.map((t) => t.name)).toEqual(['read']);
  });

  it('gives the explorer’s child run the workdir’s AGENTS.md as well', async () => {
    await ws.write('AGENTS.md', 'Always answer in British English, mate.\n');
    const provider = new ScriptedProvider({
      turns: [
        { tool_calls: [{ name: 'explore', arguments: { task: 'where is alpha?' } }] },
        { text: 'alpha is in a.txt' },
        { text: 'a.txt' },
      ],
    });
    const app = await createApplication(settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'explore' }), {
      provider,
      logger: silent,
    });
    expect((await app.run({ prompt: 'find alpha' })).text).toBe('a.txt');
    expect(provider.requests).toHaveLength(3);
    for (const request of provider.requests.slice(0, 2)) {
      const system = request.messages.filter((m) => m.role === 'system');
      expect(system.some((m) => m.content.includes('British English, mate.'))).toBe(true);
    }
  });

  it('keeps RUNTIME_VERSION in step with package.json', async () => {
    const manifest = JSON.parse(
      await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
    );
    expect(RUNTIME_VERSION).toBe(manifest.version);
  });
});

describe('the bash sandbox in the application', () => {
  const usable = sandboxStatus('bwrap').active === 'bwrap';

  it('health reports the sandbox setting, the sandbox in force here and why', async () => {
    const off = await createApplication(settingsWith({ TINY_CLAW_SANDBOX: 'off' }), {
      logger: silent,
    });
    expect(off.health().sandbox).toMatchObject({ mode: 'off', active: 'off' });
    expect(off.health().sandbox.reason).toContain('TINY_CLAW_SANDBOX=off');
    const auto = await createApplication(settingsWith(), { logger: silent });
    expect(auto.health().sandbox).toEqual(sandboxStatus('auto'));
  });

  it.runIf(usable)(
    'bash runs in the sandbox the settings ask for: the state dir and TINY_CLAW_SANDBOX_HIDE are hidden, the network is off',
    async () => {
      await ws.write('.state/marker', 'STATE-SECRET\n');
      await ws.write('private/token', 'HIDDEN-TOKEN\n');
      const command = 'cat .state/marker private/token; exec 3<>/dev/tcp/192.0.2.1/80';
      const provider = new ScriptedProvider({
        turns: [{ tool_calls: [{ name: 'bash', arguments: { command } }] }, { text: 'done' }],
      });
      const settings = settingsWith({
        TINY_CLAW_ENABLED_TOOLS: 'bash',
        TINY_CLAW_APPROVAL_PROVIDER: 'off',
        TINY_CLAW_SANDBOX_HIDE: ws.path('private'),
      });
      const app = await createApplication(settings, { provider, logger: silent });
      expect(app.health().sandbox.active).toBe('bwrap');
      await app.run({ prompt: 'x' });
      const observation = provider.requests[1]?.messages.find((m) => m.role === 'tool');
      expect(observation?.metadata).toMatchObject({ sandbox: 'bwrap' });
      expect(observation?.content).not.toContain('STATE-SECRET');
      expect(observation?.content).not.toContain('HIDDEN-TOKEN');
      expect(observation?.content).toContain('Network is unreachable');
    },
  );
});

describe('approvals in the application', () => {
  const writeEnv = () =>
    new ScriptedProvider({
      turns: [
        { tool_calls: [{ name: 'write', arguments: { path: '.env', content: 'TOKEN=1\n' } }] },
        { text: 'env written' },
        { tool_calls: [{ name: 'write', arguments: { path: '.env', content: 'TOKEN=2\n' } }] },
        { text: 'left alone' },
      ],
    });

  it('pauses a risky write, writes nothing, and runs it exactly once after approval', async () => {
    const app = await createApplication(settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'read,write' }), {
      provider: writeEnv(),
      logger: silent,
    });
    expect(app.health().approvals).toBe('cli');
    const paused = await app.run({ prompt: 'set the token', requestedBy: 'cli:test' });
    expect(paused).toMatchObject({ stopReason: 'approval_required' });
    await expect(readFile(ws.path('.env'), 'utf8')).rejects.toThrow(/ENOENT/);
    const records = await app.approvals({ status: 'pending' });
    expect(records.map((r) => [r.id, r.toolName, r.requestedBy])).toEqual([
      [paused.approvalId, 'write', 'cli:test'],
    ]);
    const resumed = await app.resumeApproval(paused.approvalId as string, {
      decision: 'approve',
      actor: 'cli:alice',
    });
    expect(resumed).toMatchObject({ stopReason: 'final', text: 'env written' });
    expect(await readFile(ws.path('.env'), 'utf8')).toBe('TOKEN=1\n');
    expect((await app.approval(paused.approvalId as string))?.status).toBe('consumed');
    await expect(
      app.resumeApproval(paused.approvalId as string, { decision: 'approve', actor: 'cli:alice' }),
    ).rejects.toMatchObject({ refusal: 'already_handled' });
  });

  it('runs and decides in a resolved chat session, where only the requester or an approver may decide', async () => {
    const app = await createApplication(
      settingsWith({
        TINY_CLAW_ENABLED_TOOLS: 'read,write',
        TINY_CLAW_APPROVAL_PROVIDER: 'feishu',
        FEISHU_APPROVERS: 'ou_lead',
      }),
      { provider: writeEnv(), logger: silent, front: 'server' },
    );
    // A chat's session as a chat front end resolves it: its own source, the chat as origin.
    const chat = await resolveSession({
      source: 'feishu',
      workdir: ws.dir,
      externalId: 'chat:oc_team',
    });
    const paused = await app.run({
      prompt: 'set the token',
      session: chat,
      requestedBy: 'ou_dev',
      origin: 'oc_team',
    });
    expect(paused.stopReason).toBe('approval_required');
    const record = await app.approval(paused.approvalId as string);
    expect(record).toMatchObject({
      sessionKey: chat.key,
      chatId: 'oc_team',
      requestedBy: 'ou_dev',
    });
    const id = paused.approvalId as string;
    await expect(
      app.resumeApproval(id, {
        decision: 'approve',
        actor: 'ou_other',
        session: chat,
        origin: 'oc_team',
      }),
    ).rejects.toMatchObject({ refusal: 'not_allowed' });
    await expect(
      app.resumeApproval(id, {
        decision: 'approve',
        actor: 'ou_lead',
        session: chat,
        origin: 'oc_elsewhere',
      }),
    ).rejects.toMatchObject({ refusal: 'wrong_session' });
    const resumed = await app.resumeApproval(id, {
      decision: 'approve',
      actor: 'ou_lead',
      session: chat,
      origin: 'oc_team',
    });
    expect(resumed).toMatchObject({ stopReason: 'final', text: 'env written' });
    expect(await readFile(ws.path('.env'), 'utf8')).toBe('TOKEN=1\n');
  });

  it('never pauses when approvals are off', async () => {
    const app = await createApplication(
      settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'read,write', TINY_CLAW_APPROVAL_PROVIDER: 'off' }),
      { provider: writeEnv(), logger: silent },
    );
    expect(app.health().approvals).toBe('off');
    expect((await app.run({ prompt: 'x' })).stopReason).toBe('final');
    expect(await readFile(ws.path('.env'), 'utf8')).toBe('TOKEN=1\n');
  });
});
