import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createTempWorkspace,
  type FakeLlmServer,
  runCli,
  startFakeLlmServer,
  type TempWorkspace,
} from '@tiny-claw/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The chat in a real pseudo-terminal (tmux, on its own server socket), against a loopback model
// that records every request. One chat runs through the file, turn after turn, like a person
// talking to it; every wait is for text on the screen, under one generous deadline.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');
const socket = `tiny-claw-chat-test-${process.pid}`;
const DEADLINE_MS = 15_000;
const POLL_MS = 50;

let ws: TempWorkspace;
let server: FakeLlmServer;
let env: Record<string, string>;

const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/** A chat process in a tmux pane, whose screen (and scrollback) a test reads. */
class Pane {
  constructor(readonly name: string) {}

  static open(name: string, args: string[]): Pane {
    const vars = Object.entries(env).map(([key, value]) => `${key}=${quote(value)}`);
    const command = `env -i ${vars.join(' ')} ${quote(process.execPath)} -- ${quote(bin)} ${args.map(quote).join(' ')}; echo "[exit $?]"; sleep 600`;
    tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '40', '-c', ws.dir, command);
    return new Pane(name);
  }

  screen(): string {
    return tmux('capture-pane', '-p', '-J', '-S', '-1000', '-t', this.name);
  }

  keys(...keys: string[]): void {
    tmux('send-keys', '-t', this.name, ...keys);
  }

  /** Type a line literally, then Enter. */
  type(line: string): void {
    tmux('send-keys', '-t', this.name, '-l', line);
    this.keys('Enter');
  }

  async waitFor(test: (screen: string) => boolean, what: string): Promise<string> {
    const end = Date.now() + DEADLINE_MS;
    for (;;) {
      const screen = this.screen();
      if (test(screen)) return screen;
      if (Date.now() > end)
        throw new Error(`timed out waiting for ${what}; the screen:\n${screen}`);
      await new Promise((done) => setTimeout(done, POLL_MS));
    }
  }

  #ended = 0;

  /** Wait until the next turn has ended: each ends with the status line. */
  turnEnded(): Promise<string> {
    this.#ended += 1;
    const count = this.#ended;
    return this.waitFor((s) => statusLines(s) >= count, `${count} status line(s)`);
  }
}

const statusLines = (screen: string) =>
  screen.split('\n').filter((line) => /^mode \S+ · session \S+ · model /.test(line)).length;

/** Processes whose command line is exactly `command`. */
const running = (command: string) =>
  execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.trim() === command);

/** What the user sent on the latest request: its last user message, as text. */
function lastUserText(): string {
  const body = server.requests.at(-1)?.body as {
    messages?: Array<{ role: string; content: unknown }>;
  };
  const users = (body.messages ?? []).filter((m) => m.role === 'user');
  const content = users.at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

beforeAll(async () => {
  ws = await createTempWorkspace({ 'a.txt': 'alpha\n' });
  server = await startFakeLlmServer();
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: ws.path('.home'),
    TERM: 'xterm-256color',
    XDG_CONFIG_HOME: ws.path('.config'),
    TINY_CLAW_STATE_DIR: ws.path('.state'),
    TINY_CLAW_WORKDIR: ws.dir,
    TINY_CLAW_PROVIDER: 'openai',
    TINY_CLAW_MODEL: 'gpt-4.1',
    OPENAI_API_KEY: 'sk-test-not-a-real-key-000',
    OPENAI_BASE_URL: server.openaiBaseUrl,
    TINY_CLAW_ENABLED_TOOLS: 'read,write,edit,bash',
    TINY_CLAW_SANDBOX: 'off',
  };
});
afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // No pane was opened.
  }
  await server.close();
  await ws.cleanup();
});

describe('tiny-claw chat in a terminal', { timeout: 60_000 }, () => {
  let pane: Pane;
  const requestText = (index: number) => JSON.stringify(server.requests[index]?.body);

  it('streams the answer of a prompt, and the next prompt sees the first in its context', async () => {
    server.enqueue(
      { kind: 'turn', text: 'first answer, streamed', chunkSize: 4 },
      { kind: 'turn', text: 'second answer' },
    );
    pane = Pane.open('main', ['chat']);
    await pane.waitFor((s) => s.includes('› '), 'the prompt');
    pane.type('first question alpha');
    let screen = await pane.turnEnded();
    expect(screen).toContain('first answer, streamed');
    expect(screen).toMatch(/stop=final · steps=1\/20 · session=\S+ · tokens=0 in \/ 0 out/);
    expect(screen).toMatch(/^mode act · session default · model gpt-4\.1 · context /m);
    pane.type('second question beta');
    screen = await pane.turnEnded();
    expect(screen).toContain('second answer');
    expect(requestText(1)).toContain('first question alpha');
    expect(requestText(1)).toContain('first answer, streamed');
    // The first turn goes whole, as the conversation's own messages, before the new prompt.
    const body = server.requests[1]?.body as
      | { messages: Array<{ role: string; content: unknown }> }
      | undefined;
    const sent = body?.messages ?? [];
    const roles = sent.map((message) => [message.role, message.content]);
    expect(roles.slice(-3)).toEqual([
      ['user', 'first question alpha'],
      ['assistant', 'first answer, streamed'],
      ['user', 'second question beta'],
    ]);
  });

  it('Ctrl-C cancels a turn running `sleep`: its command is stopped and the chat goes on', async () => {
    const sleep = 'sleep 29.87';
    server.enqueue({ kind: 'turn', toolCalls: [{ name: 'bash', arguments: { command: sleep } }] });
    pane.type('take a nap');
    await pane.waitFor((s) => s.includes(`→ bash {"command":"${sleep}"}`), 'the bash call');
    await pane.waitFor(() => running(sleep).length > 0, 'the sleep to start');
    pane.keys('C-c');
    const screen = await pane.turnEnded();
    expect(screen).toContain('stop=cancelled');
    expect(running(sleep)).toEqual([]);
    server.enqueue({ kind: 'turn', text: 'awake again' });
    pane.type('still there?');
    expect(await pane.turnEnded()).toContain('awake again');
  });

  it('asks about a risky write inline: y approves it and the file is written', async () => {
    server.enqueue(
      {
        kind: 'turn',
        toolCalls: [{ name: 'write', arguments: { path: '.env', content: 'A=1\n' } }],
      },
      { kind: 'turn', text: 'env written' },
    );
    pane.type('write the env');
    await pane.waitFor((s) => s.includes('Approve? [y]es / [n]o / n <reason>:'), 'the question');
    pane.type('y');
    const screen = await pane.turnEnded();
    expect(screen).toContain('✓ write approved by cli:');
    expect(screen).toContain('env written');
    expect(await readFile(ws.path('.env'), 'utf8')).toBe('A=1\n');
  });

  it('"always for this session" answers the next identical ask in a later turn', async () => {
    const questions = (screen: string) =>
      screen.split('Approve? [y]es / [n]o / n <reason>:').length;
    const offers = (screen: string) => screen.split('[a]lways in this session').length;
    const remove = {
      kind: 'turn' as const,
      toolCalls: [{ name: 'bash', arguments: { command: 'rm -f gone.txt' } }],
    };
    const offered = offers(pane.screen());
    server.enqueue(remove, { kind: 'turn', text: 'first removal' });
    pane.type('remove gone.txt');
    const asked = await pane.waitFor(
      (s) => offers(s) > offered && s.trimEnd().endsWith('Approve? [y]es / [n]o / n <reason>:'),
      'the question with its always answers',
    );
    const before = questions(asked);
    pane.type('a');
    expect(await pane.turnEnded()).toContain('kept for this session: allow bash rm -f gone.txt');
    server.enqueue(remove, { kind: 'turn', text: 'second removal' });
    pane.type('remove it again');
    const screen = await pane.turnEnded();
    expect(screen).toContain('second removal');
    expect(questions(screen), screen).toBe(before);
    expect(screen.split('← bash ok').length).toBeGreaterThanOrEqual(3);
  });

  it('shows escape sequences in the model text as text, never as terminal commands', async () => {
    server.enqueue({ kind: 'turn', text: 'look: \x1b[2J\x1b]0;pwned\x07 done' });
    pane.type('say something odd');
    const screen = await pane.turnEnded();
    expect(screen).toContain('look: \\x1b[2J\\x1b]0;pwned\\x07 done');
    // A cleared screen would have lost the first turn.
    expect(screen).toContain('first answer, streamed');
  });

  it('/mode plan, then a prompt, writes the plan of the session', async () => {
    pane.type('/mode plan');
    await pane.waitFor((s) => /^mode plan$/m.test(s), 'the mode to change');
    server.enqueue({
      kind: 'turn',
      text: '<PLAN_MD>\n# PLAN.md\n\n## Goal\nShip the chat.\n</PLAN_MD>\n<TODO_MD>\n# TODO.md\n\n- [ ] TC-001 Write it\n</TODO_MD>',
    });
    pane.type('plan the chat');
    expect(await pane.turnEnded()).toMatch(/^mode plan · session default/m);
    const listed = await runCli({ bin, args: ['sessions', '--json'], env, cwd: ws.dir });
    const [session] = JSON.parse(listed.stdout) as Array<{ key: string; turns: number }>;
    expect(session?.turns).toBe(9);
    expect(listed.stdout).toContain('"name": "default"');
    const table = await runCli({ bin, args: ['sessions'], env, cwd: ws.dir });
    expect(table.stdout).toMatch(
      /^NAME +LAST USED +TURNS +COST\ndefault +\S+ \S+ +9 +cost≈\$0\.0000\n$/,
    );
    const plan = join(ws.path('.state'), 'sessions', session?.key ?? '?', 'plan', 'PLAN.md');
    expect(await readFile(plan, 'utf8')).toContain('Ship the chat.');
  });

  it('a trailing backslash, a bracketed paste and Alt+Enter each continue a prompt over several lines', async () => {
    pane.type('/mode act');
    server.enqueue({ kind: 'turn', text: 'got lines' }, { kind: 'turn', text: 'got paste' });
    pane.type('line one \\');
    pane.type('line two');
    await pane.turnEnded();
    expect(lastUserText()).toContain('line one \nline two');
    tmux('set-buffer', '-b', 'chat-test', 'pasted one\npasted two');
    tmux('paste-buffer', '-p', '-b', 'chat-test', '-t', pane.name);
    pane.keys('Enter');
    await pane.turnEnded();
    expect(lastUserText()).toContain('pasted one\npasted two');
    server.enqueue({ kind: 'turn', text: 'got alt' });
    tmux('send-keys', '-t', pane.name, '-l', 'alt one');
    pane.keys('M-Enter');
    pane.type('alt two');
    await pane.turnEnded();
    expect(lastUserText()).toContain('alt one\nalt two');
    // Up recalls the whole prompt of several lines, and Enter sends it as it was.
    server.enqueue({ kind: 'turn', text: 'got it again' });
    pane.keys('Up', 'Enter');
    await pane.turnEnded();
    expect(lastUserText()).toContain('alt one\nalt two');
  });

  it('Tab completes a slash command, and @path attaches the file through the path guard', async () => {
    pane.keys('/mo', 'Tab');
    pane.type(' think');
    await pane.waitFor((s) => /^mode think$/m.test(s), 'the completed command');
    pane.type('/mode act');
    server.enqueue({ kind: 'turn', text: 'read it' });
    pane.type('explain @a.txt and @../outside.txt');
    const screen = await pane.turnEnded();
    expect(screen).toContain('attached @a.txt (6 chars)');
    expect(screen).toMatch(/@\.\.\/outside\.txt not attached: path must stay under the workdir/);
    expect(lastUserText()).toContain('<file path="a.txt">\nalpha\n\n</file>');
  });

  it('an unknown slash command answers with the list of commands', async () => {
    pane.type('/frobnicate');
    const screen = await pane.waitFor((s) => s.includes('unknown command /frobnicate'), 'the list');
    expect(screen).toMatch(/\/approvals\s+the requests waiting/);
  });

  it('/trace, /cost, /plan, /rules, /compact and /session answer about the chat', async () => {
    pane.type('/trace');
    await pane.waitFor((s) => /^agent\.run main .*ok/m.test(s), 'the trace tree');
    pane.type('/cost');
    await pane.waitFor(
      (s) => /^last turn cost≈\$0\.0000 · this chat cost≈\$0\.0000$/m.test(s),
      'the cost',
    );
    pane.type('/plan');
    await pane.waitFor((s) => /^Ship the chat\.$/m.test(s), "the session's plan");
    pane.type('/rules');
    await pane.waitFor((s) => /^No kept rules in force for /m.test(s), 'the rules');
    pane.type('/compact');
    await pane.waitFor(
      (s) => /^compacted: \d+ earlier turn\(s\) left out of what the next turn sends/m.test(s),
      'the compaction',
    );
    pane.type('/compact');
    await pane.waitFor(
      (s) =>
        s.includes('nothing to compact: the conversation sent with the next turn holds 1 turn(s)'),
      'nothing more to compact',
    );
    pane.type('/session other');
    await pane.waitFor((s) => /^session other$/m.test(s), 'the switch');
    pane.type('/session default');
    await pane.waitFor((s) => /^session default$/m.test(s), 'the switch back');
  });

  it('Ctrl-C while the answer streams keeps the partial answer in the session', async () => {
    let release!: () => void;
    const held = new Promise<void>((done) => {
      release = done;
    });
    server.enqueue({ kind: 'stall', text: 'half an answer', afterEvents: 3, until: held });
    pane.type('tell me everything');
    await pane.waitFor((s) => s.includes('half an'), 'the partial answer');
    pane.keys('C-c');
    expect(await pane.turnEnded()).toContain('stop=cancelled');
    release();
    server.enqueue({ kind: 'turn', text: 'as I was saying' });
    pane.type('go on');
    await pane.turnEnded();
    const context = requestText(server.requests.length - 1);
    expect(context).toMatch(
      /last_prompt: tell me everything\\nlast_response: half an[^"]*\\n\[cancelled by the user before the answer was complete\]/,
    );
  });

  it('/approvals decides a request left pending at the question', async () => {
    server.enqueue(
      {
        kind: 'turn',
        toolCalls: [{ name: 'write', arguments: { path: '.env.local', content: 'B=2\n' } }],
      },
      { kind: 'turn', text: 'local env written' },
    );
    const asked = pane.screen().split('Approve? [y]es').length;
    pane.type('write the local env');
    await pane.waitFor((s) => s.split('Approve? [y]es').length === asked + 1, 'the question');
    pane.keys('C-c');
    expect(await pane.turnEnded()).toContain('no decision; the request stays pending.');
    pane.type('/approvals');
    await pane.waitFor((s) => s.split('Approve? [y]es').length === asked + 2, 'the question again');
    pane.type('y');
    expect(await pane.turnEnded()).toContain('local env written');
    expect(await readFile(ws.path('.env.local'), 'utf8')).toBe('B=2\n');
  });

  it('Ctrl-D leaves with exit 0', async () => {
    pane.keys('C-d');
    await pane.waitFor((s) => s.includes('[exit 0]'), 'the exit');
  });

  it('chat --continue reopens the session and shows what it remembers', async () => {
    server.enqueue({ kind: 'turn', text: 'continued' });
    const again = Pane.open('again', ['chat', '--continue']);
    await again.waitFor((s) => s.includes('continuing session default'), 'the greeting');
    expect(again.screen()).toContain('last_prompt: write the local env');
    // Up recalls the prompts typed in this workdir, kept between chats.
    again.keys('Up');
    await again.waitFor((s) => s.includes('› write the local env'), 'the recall');
    again.keys('C-c');
    again.type('and now?');
    await again.turnEnded();
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('write the local env');
    again.keys('C-c');
    await again.waitFor((s) => s.includes('Ctrl-C again or Ctrl-D'), 'the hint');
    again.keys('C-c');
    await again.waitFor((s) => s.includes('[exit 0]'), 'the exit');
  });
});

describe('tiny-claw chat that cannot start', { timeout: 60_000 }, () => {
  it('ends with the usage error when the agent cannot be loaded behind the prompt', async () => {
    const pane = Pane.open('broken', ['chat', '--workdir', 'no-such-dir']);
    const screen = await pane.waitFor((s) => s.includes('[exit 2]'), 'the exit');
    expect(screen).toContain('tiny-claw: --workdir no-such-dir: no such directory');
    expect(screen).toContain("Run 'tiny-claw chat --help' for usage.");
  });
});

describe('without a terminal', () => {
  it.each([
    [['chat'], 2, /chat needs a terminal/],
    [[], 0, /^tiny-claw — a coding agent/],
    [['chat', '--help'], 0, /^Usage: tiny-claw chat .*\n[\s\S]*\/approvals +the requests waiting/],
    [['sessions', '--help'], 0, /^Usage: tiny-claw sessions \[--json\]/],
    [['chat', '--mode', 'yolo'], 2, /--mode "yolo" is not supported[\s\S]*tiny-claw chat --help/],
  ])('tiny-claw %j exits %i', async (args, code, text) => {
    const result = await runCli({ bin, args, env, cwd: ws.dir });
    expect(result.code).toBe(code);
    expect(code === 0 ? result.stdout : result.stderr).toMatch(text);
  });

  it('run --continue runs in the session used last', async () => {
    server.enqueue({ kind: 'turn', text: 'one-shot' });
    const result = await runCli({ bin, args: ['run', '--continue', 'again'], env, cwd: ws.dir });
    expect(result.stdout).toBe('one-shot\n');
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('and now?');
  });
});
