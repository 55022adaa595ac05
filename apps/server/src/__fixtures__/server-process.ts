import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type FakeFeishuServer,
  feishuMessageEvent,
  feishuRequest,
  type TempWorkspace,
} from '@tiny-claw/testkit';
import { APP_ID, APP_SECRET, ENCRYPT_KEY, EVENT_PATH, VERIFICATION_TOKEN } from './harness.js';

const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/tiny-claw-server.js');

/** The built `tiny-claw-server` running as its own process, configured by environment only. */
export interface RunningServerProcess {
  url: string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Deliver a signed, encrypted text message as Feishu would; returns its message id. */
  say(chatId: string, senderOpenId: string, text: string): Promise<string>;
  /** SIGTERM, then resolves with the exit code once the process has gone and stderr is read. */
  stop(): Promise<number | null>;
  /**
   * SIGKILL, as a crash: nothing is released or flushed. Resolves once the process has gone (the
   * commands its bash tool started live in their own process groups and are not killed).
   */
  kill(): Promise<void>;
}

/**
 * Start `tiny-claw-server` on a free loopback port with the Feishu app of the harness pointed at
 * `feishu`, the state and workdir in `ws`, and `env` on top; resolves once it listens.
 *
 * @example
 * const server = await startServerProcess(ws, feishu, { TINY_CLAW_LOG_FORMAT: 'json' });
 */
export async function startServerProcess(
  ws: TempWorkspace,
  feishu: FakeFeishuServer,
  env: Record<string, string>,
): Promise<RunningServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [bin, '--host', '127.0.0.1', '--port', '0'], {
    cwd: ws.dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: ws.dir,
      TINY_CLAW_STATE_DIR: ws.path('.state'),
      TINY_CLAW_WORKDIR: ws.dir,
      FEISHU_DOMAIN: feishu.url,
      FEISHU_APP_ID: APP_ID,
      FEISHU_APP_SECRET: APP_SECRET,
      FEISHU_ENCRYPT_KEY: ENCRYPT_KEY,
      FEISHU_VERIFICATION_TOKEN: VERIFICATION_TOKEN,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolveExit) => {
    child.on('close', (code) => resolveExit(code));
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (listening) resolveUrl(listening[1] as string);
    });
    void exited.then((code) => reject(new Error(`the server exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    stderr: () => stderr,
    say: async (chatId, senderOpenId, text) => {
      const event = feishuMessageEvent({ chatId, senderOpenId, text, token: VERIFICATION_TOKEN });
      const messageId = event.event.message.message_id;
      feishu.knowMessage(messageId, chatId);
      const { body, headers } = feishuRequest(event, { encryptKey: ENCRYPT_KEY });
      const response = await fetch(`${url}${EVENT_PATH}`, { method: 'POST', headers, body });
      if (response.status !== 200) throw new Error(`the event was answered ${response.status}`);
      return messageId;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
