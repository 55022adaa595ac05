import { spawn } from 'node:child_process';
import { createTempWorkspace, runCli, type TempWorkspace, writeScript } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bin } from './__fixtures__/approval-cli.js';
import { STYLES } from './terminal-text.js';

// What a person sees: the real CLI in a pseudo-terminal (util-linux `script`), colours on, fed
// model text, tool names, arguments, tool output and file names full of escape sequences.

let ws: TempWorkspace;
let outside: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'a.txt': 'alpha\n' });
  outside = await createTempWorkspace({}, 'tiny-claw-terminal-');
  env = {
    TINY_CLAW_STATE_DIR: outside.path('state'),
    TINY_CLAW_WORKDIR: ws.dir,
    TINY_CLAW_PROVIDER: 'scripted',
    TINY_CLAW_ENABLED_TOOLS: 'read,bash',
    TINY_CLAW_APPROVAL_PROVIDER: 'off',
  };
});
afterEach(async () => {
  await ws.cleanup();
  await outside.cleanup();
});

const TITLE = '\x1b]0;pwned\x07';
const CLEAR = '\x1b[2J';
const CLIPBOARD = '\x1b]52;c;cm0gLXJmIH4=\x07';
const C1_CSI = '\x9b2J';
const BIDI = '\u202e';
const HOSTILE = `${TITLE}${CLEAR}${CLIPBOARD}\x1b[35;1mpurple\x1b[31mred\x1b[0m${C1_CSI}${BIDI}`;

/** Everything the terminal showed, and how the command ended. */
function inTerminal(args: string[], extra: Record<string, string> = {}) {
  const command = [process.execPath, bin, ...args].map(shellWord).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ws.dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      SHELL: '/bin/sh',
      TERM: 'xterm-256color',
      ...env,
      ...extra,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise<{ output: string; code: number | null }>((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.end();
      done({ output, code });
    });
  });
}

function shellWord(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

const OWN_STYLE = new RegExp(`^\\x1b\\[(?:${Object.values(STYLES).join('|')})m`);

/** Every escape byte in `output` that does not begin one of our own colour sequences. */
function foreignEscapes(output: string): string[] {
  const found: string[] = [];
  for (let i = output.indexOf('\x1b'); i !== -1; i = output.indexOf('\x1b', i + 1)) {
    const rest = output.slice(i);
    if (!OWN_STYLE.test(rest)) found.push(JSON.stringify(rest.slice(0, 12)));
  }
  return found;
}

describe('text from the model and the tools on a terminal', () => {
  it('reaches the screen only as visible escapes — streamed text, tool names, arguments, tool output, the answer — while our colours still show', async () => {
    const script = await writeScript(outside.dir, {
      turns: [
        {
          text: `thinking ${HOSTILE}`,
          tool_calls: [{ name: `read${TITLE}${CLEAR}`, arguments: { path: `a${BIDI}txt.exe` } }],
        },
        { tool_calls: [{ name: 'read', arguments: { path: `evil${CLIPBOARD}${BIDI}.txt` } }] },
        {
          tool_calls: [
            { name: 'bash', arguments: { command: "printf '\\033]0;out\\007\\033[2J'; exit 3" } },
          ],
        },
        { text: `answer ${HOSTILE}` },
      ],
    });
    const { output, code } = await inTerminal(['run', 'go'], { TINY_CLAW_SCRIPT: script });
    expect(code, output).toBe(0);
    expect(foreignEscapes(output)).toEqual([]);
    for (const raw of ['\x07', '\x9b', BIDI]) expect(output).not.toContain(raw);
    // Shown, not obeyed: a person can still see what the model tried.
    expect(output).toContain('thinking \\x1b]0;pwned\\x07\\x1b[2J\\x1b]52;c;cm0gLXJmIH4=\\x07');
    expect(output).toContain('\\x1b[35;1mpurple\\x1b[31mred\\x1b[0m\\x9b2J\\u202e');
    expect(output).toContain('answer \\x1b]0;pwned\\x07');
    expect(output).toContain('read\\x1b]0;pwned\\x07\\x1b[2J');
    expect(output).toContain('a\\u202etxt.exe');
    // Our own styling is still there: the tool line in cyan, the failure in red.
    expect(output).toContain(`\x1b[${STYLES.cyan}m→ bash\x1b[${STYLES.reset}m`);
    expect(output).toContain(`\x1b[${STYLES.red}m← bash failed`);
  });

  it('a plan and an error naming a file are shown escaped on a terminal; a pipe gets the plan byte for byte', async () => {
    const plan = await writeScript(outside.dir, {
      turns: [{ text: `# Plan ${TITLE}\n- [ ] first ${CLEAR}${BIDI}step\n` }],
    });
    env.TINY_CLAW_SCRIPT = plan;
    const planned = await runCli({ bin, args: ['run', '--mode', 'plan', 'go'], cwd: ws.dir, env });
    expect(planned.code, planned.stderr).toBe(0);

    const shown = await inTerminal(['plan', 'show']);
    expect(shown.code, shown.output).toBe(0);
    expect(foreignEscapes(shown.output)).toEqual([]);
    expect(shown.output).toContain('# Plan \\x1b]0;pwned\\x07');
    expect(shown.output).toContain('first \\x1b[2J\\u202estep');

    const piped = await runCli({ bin, args: ['plan', 'show'], cwd: ws.dir, env });
    expect(piped.stdout).toContain(`# Plan ${TITLE}`);

    const missing = await inTerminal(['run', '--workdir', `no${BIDI}such${TITLE}`, 'hi']);
    expect(missing.code).toBe(2);
    expect(foreignEscapes(missing.output)).toEqual([]);
    expect(missing.output).toContain('no\\u202esuch\\x1b]0;pwned\\x07');
  });
});
