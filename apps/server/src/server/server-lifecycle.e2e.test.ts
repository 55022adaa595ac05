import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigurationError } from '@tiny-claw/core';
import { createTempWorkspace, feishuMessageEvent, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APP_ID,
  APP_SECRET,
  GatedProvider,
  type Harness,
  memoryLogger,
  startHarness,
  VERIFICATION_TOKEN,
} from '../__fixtures__/harness.js';
import { main, type ServerProcess } from '../main.js';
import { loadServerSettings } from './load-server-settings.js';
import { startServer } from './start-server.js';

let harness: Harness | undefined;
let ws: TempWorkspace | undefined;
afterEach(async () => {
  await harness?.close();
  await ws?.cleanup();
  harness = undefined;
  ws = undefined;
});

const options = {
  host: '127.0.0.1',
  port: 0,
  eventPath: '/api/events/feishu',
  mode: 'act' as const,
  maxSteps: 5,
};

async function settingsFor(env: Record<string, string>) {
  ws = await createTempWorkspace();
  return loadServerSettings({
    env: { TINY_CLAW_STATE_DIR: ws.path('.state'), TINY_CLAW_WORKDIR: ws.dir, ...env },
    cwd: ws.dir,
    homeDir: ws.dir,
  });
}

describe('starting', () => {
  it('starts the configured MCP servers, and /health gives their counts, never their names', async () => {
    const { settings } = await settingsFor({});
    const config = ws?.path('cfg/tiny-claw/mcp.json') as string;
    await mkdir(dirname(config), { recursive: true });
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { private_name: { command: ws?.path('no-such-server') } } }),
    );
    const logger = memoryLogger();
    const server = await startServer({
      settings: { ...settings, configDir: dirname(config) },
      options,
      logger,
    });
    try {
      const health = await (await fetch(`${server.url}/health`)).text();
      expect(JSON.parse(health).mcp).toEqual({ servers: 1, connected: 0, tools: 0 });
      expect(health).not.toContain('private_name');
    } finally {
      await server.close();
    }
  });

  it('starts without a model key or Feishu, and the event endpoint says what to set', async () => {
    const { settings } = await settingsFor({});
    const server = await startServer({ settings, options, logger: memoryLogger() });
    try {
      const health = await (await fetch(`${server.url}/health`)).json();
      expect(health).toMatchObject({
        status: 'ok',
        provider: { name: 'echo' },
        feishu: { configured: false },
      });
      const response = await fetch(`${server.url}/api/events/feishu`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        error: 'feishu_not_configured',
        message:
          'Feishu is not configured: set FEISHU_APP_ID and FEISHU_APP_SECRET, and FEISHU_ENCRYPT_KEY (recommended) or FEISHU_VERIFICATION_TOKEN, then restart the server.',
      });
    } finally {
      await server.close();
    }
  });

  it('refuses to start a webhook that has neither an encrypt key nor a verification token', async () => {
    const { settings } = await settingsFor({
      FEISHU_APP_ID: APP_ID,
      FEISHU_APP_SECRET: APP_SECRET,
    });
    const started = startServer({ settings, options, logger: memoryLogger() });
    await expect(started).rejects.toThrow(ConfigurationError);
    await expect(started).rejects.toThrow(/FEISHU_ENCRYPT_KEY or FEISHU_VERIFICATION_TOKEN/);
  });

  it('in long-connection mode needs neither, and the webhook path says events come over the connection', async () => {
    const { settings } = await settingsFor({
      FEISHU_APP_ID: APP_ID,
      FEISHU_APP_SECRET: APP_SECRET,
      FEISHU_MODE: 'ws',
      FEISHU_DOMAIN: 'http://127.0.0.1:9',
    });
    const logger = memoryLogger();
    const server = await startServer({ settings, options, logger });
    try {
      expect(server.health().feishu).toEqual({ configured: true, mode: 'ws', domain: 'custom' });
      const response = await fetch(`${server.url}/api/events/feishu`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: 'feishu_webhook_off' });
    } finally {
      await server.close();
    }
    expect(logger.lines.join('\n')).not.toContain(APP_SECRET);
  });

  it('says which port is taken', async () => {
    const { settings } = await settingsFor({});
    const first = await startServer({ settings, options, logger: memoryLogger() });
    try {
      await expect(
        startServer({
          settings,
          options: { ...options, port: first.port },
          logger: memoryLogger(),
        }),
      ).rejects.toThrow(`Port ${first.port} on 127.0.0.1 is already in use`);
    } finally {
      await first.close();
    }
  });
});

describe('settings of the server', () => {
  it("reads the working directory's .env, with the real environment winning", async () => {
    ws = await createTempWorkspace({
      '.env': 'FEISHU_MODE=ws\nTINY_CLAW_SERVER_PORT=9123\nTINY_CLAW_MAX_TOKENS=77\n',
    });
    const { settings, warnings } = await loadServerSettings({
      env: { TINY_CLAW_STATE_DIR: ws.path('.state'), TINY_CLAW_MAX_TOKENS: '55' },
      cwd: ws.dir,
      homeDir: ws.dir,
    });
    expect(settings.feishu.mode).toBe('ws');
    expect(settings.server.port).toBe(9123);
    expect(settings.maxTokens).toBe(55);
    expect(warnings).toEqual([]);
  });

  it('reads --env-file instead of ./.env, and refuses a missing one', async () => {
    ws = await createTempWorkspace({
      '.env': 'FEISHU_DOMAIN=lark\n',
      'team.env': 'FEISHU_DOMAIN=https://open.example.com\n',
    });
    const base = { env: { TINY_CLAW_STATE_DIR: ws.path('.state') }, cwd: ws.dir, homeDir: ws.dir };
    const { settings } = await loadServerSettings({ ...base, envFile: 'team.env' });
    expect(settings.feishu.domain).toBe('https://open.example.com');
    await expect(loadServerSettings({ ...base, envFile: 'nope.env' })).rejects.toThrow(
      /nope\.env \(--env-file\) does not exist/,
    );
  });

  it('names the variable, the value and what is accepted for a bad mode or domain', async () => {
    ws = await createTempWorkspace();
    const load = (env: Record<string, string>) =>
      loadServerSettings({
        env: { TINY_CLAW_STATE_DIR: ws?.path('.state') ?? '', ...env },
        cwd: ws?.dir ?? '',
        homeDir: ws?.dir ?? '',
      });
    await expect(load({ FEISHU_MODE: 'socket' })).rejects.toThrow(
      'FEISHU_MODE="socket" is invalid: expected one of: webhook, ws.',
    );
    await expect(load({ FEISHU_DOMAIN: 'https://u:p@open.feishu.cn/x' })).rejects.toThrow(
      /FEISHU_DOMAIN=.* is invalid: expected feishu, lark, or an http\(s\) base URL/,
    );
  });
});

describe('shutting down', () => {
  it('lets running work finish, answering new events 503 meanwhile', async () => {
    const provider = new GatedProvider();
    harness = await startHarness({ provider });
    const { messageId } = await harness.say('oc_a', 'ou_ann', 'finish me');
    await provider.until(() => provider.active === 1);
    const closed = harness.server.close();
    expect(harness.server.health().status).toBe('draining');
    const late = feishuMessageEvent({
      chatId: 'oc_b',
      senderOpenId: 'ou_bob',
      text: 'too late',
      token: VERIFICATION_TOKEN,
    });
    const response = await harness.deliver(late).catch(() => undefined);
    // Either refused with 503 (Feishu delivers it again later) or the listener is already closed.
    if (response) expect(response.status).toBe(503);
    provider.release('finish me');
    await closed;
    expect(
      harness.feishu.messages.filter((m) => m.replyTo === messageId).map((m) => m.text),
    ).toEqual(['answer to finish me']);
    expect(provider.started.some((p) => p.includes('too late'))).toBe(false);
  });

  it('cancels work still running after the grace period and says so in the chat', async () => {
    const provider = new GatedProvider();
    harness = await startHarness({ provider, shutdownGraceMs: 50 });
    const { messageId } = await harness.say('oc_a', 'ou_ann', 'never finishes');
    await provider.until(() => provider.active === 1);
    await harness.server.close();
    expect(
      harness.feishu.messages.filter((m) => m.replyTo === messageId).map((m) => m.text),
    ).toEqual(['Stopped: the run was cancelled (the server is shutting down).']);
  });

  it('tells a chat whose message had not started yet to send it again', async () => {
    const provider = new GatedProvider();
    harness = await startHarness({ provider });
    const first = await harness.say('oc_a', 'ou_ann', 'first');
    const second = await harness.say('oc_a', 'ou_ann', 'second');
    await provider.until(() => provider.active === 1);
    const closed = harness.server.close();
    provider.release('first');
    await closed;
    const replyTo = (id: string) =>
      harness?.feishu.messages.filter((m) => m.replyTo === id).map((m) => m.text);
    expect(replyTo(first.messageId)).toEqual(['answer to first']);
    expect(replyTo(second.messageId)).toEqual([
      'The server is restarting and did not get to your message. Please send it again in a moment.',
    ]);
  });
});

describe('the command', () => {
  function fakeProcess(env: Record<string, string>, cwd: string) {
    const out: string[] = [];
    const err: string[] = [];
    let handler: ((signal: 'SIGINT' | 'SIGTERM') => void) | undefined;
    const proc: ServerProcess = {
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
      env,
      cwd,
      homeDir: cwd,
      onSignal: (h) => {
        handler = h;
        return () => {
          handler = undefined;
        };
      },
      exit: (code) => {
        throw new Error(`exit ${code}`);
      },
    };
    return {
      proc,
      out,
      err,
      signal: (name: 'SIGINT' | 'SIGTERM') => handler?.(name),
      listening: () => handler !== undefined,
    };
  }

  it('prints help and version, and exits 2 for a bad flag and 78 for a bad setting', async () => {
    ws = await createTempWorkspace();
    const help = fakeProcess({}, ws.dir);
    expect(await main(['--help'], help.proc)).toBe(0);
    expect(help.out.join('')).toContain('tiny-claw-server [--host H] [--port P]');
    expect(await main(['--version'], help.proc)).toBe(0);
    const bad = fakeProcess({}, ws.dir);
    expect(await main(['--mode', 'dance'], bad.proc)).toBe(2);
    expect(bad.err.join('')).toContain(
      '--mode must be one of act, think, plan, plan-act (got "dance")',
    );
    expect(await main(['--frobnicate'], bad.proc)).toBe(2);
    const config = fakeProcess(
      { TINY_CLAW_STATE_DIR: ws.path('.state'), TINY_CLAW_MAX_TOKENS: 'lots' },
      ws.dir,
    );
    expect(await main(['--port', '0'], config.proc)).toBe(78);
    expect(config.err.join('')).toContain('TINY_CLAW_MAX_TOKENS="lots" is invalid');
  });

  it('serves until SIGTERM, then shuts down and exits 0', async () => {
    ws = await createTempWorkspace();
    const run = fakeProcess({ TINY_CLAW_STATE_DIR: ws.path('.state') }, ws.dir);
    const exited = main(['--host', '127.0.0.1', '--port', '0'], run.proc);
    await new Promise<void>((resolve) => {
      const check = () => (run.listening() ? resolve() : setTimeout(check, 10));
      check();
    });
    const url = /listening on (http:\/\/\S+)/.exec(run.err.join(''))?.[1] as string;
    expect((await fetch(`${url}/health`)).status).toBe(200);
    run.signal('SIGTERM');
    expect(await exited).toBe(0);
    expect(run.err.join('')).toContain('tiny-claw-server: stopped');
  });
});
