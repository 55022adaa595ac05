import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '@tiny-claw/core';
import type { Script } from '@tiny-claw/core/testing';
import {
  type CliResult,
  createTempWorkspace,
  runCli,
  type TempWorkspace,
  writeScript,
} from '@tiny-claw/testkit';

/** The built binary, driven exactly as a user drives it (the test task builds first). */
export const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/tiny-claw.js');

type Turn = Script['turns'][number];

/**
 * A workspace for approval tests: the workdir, and beside it (outside it) the state dir and the
 * scripts. Every CLI process gets the same settings, so `run` and a later `approvals approve` in
 * another process see the same session.
 */
export interface ApprovalWorld {
  ws: TempWorkspace;
  /** Holds the state dir and the scripts, outside the workdir. */
  outside: TempWorkspace;
  stateDir: string;
  env: Record<string, string>;
  /** Write a script and return its path. */
  script(turns: Turn[]): Promise<string>;
  /** Run the CLI with the world's settings, `extra` on top. */
  cli(args: string[], extra?: Record<string, string>, stdin?: string): Promise<CliResult>;
  /** `tiny-claw run go --json` with the given model turns. */
  run(
    turns: Turn[],
    args?: string[],
    extra?: Record<string, string>,
  ): Promise<{ cli: CliResult; result: RunResult }>;
  /** Decide a request from a new process whose model answers `after` (default: "done"). */
  decide(
    args: string[],
    after?: Turn[],
    extra?: Record<string, string>,
  ): Promise<CliResult>;
  /** The stored record of a request, as `approvals show --json` prints it. */
  record(id: string): Promise<Record<string, unknown>>;
  /** Path of a session file of a run result: its checkpoint or approval record. */
  sessionFile(result: RunResult, kind: 'checkpoints' | 'approvals'): string;
  cleanup(): Promise<void>;
}

let scripts = 0;

/**
 * Create an {@link ApprovalWorld} with `files` in the workdir and the four workspace tools on.
 *
 * @example
 * const world = await createApprovalWorld({ 'a.txt': 'x' });
 */
export async function createApprovalWorld(
  files: Record<string, string> = {},
): Promise<ApprovalWorld> {
  const ws = await createTempWorkspace(files);
  const outside = await createTempWorkspace({}, 'tiny-claw-state-');
  const stateDir = outside.path('state');
  const placeholder = await writeScript(outside.dir, { turns: [{ text: 'done' }] }, 'done.json');
  const env: Record<string, string> = {
    TINY_CLAW_STATE_DIR: stateDir,
    TINY_CLAW_WORKDIR: ws.dir,
    TINY_CLAW_PROVIDER: 'scripted',
    TINY_CLAW_SCRIPT: placeholder,
    TINY_CLAW_ENABLED_TOOLS: 'read,write,edit,bash',
  };
  const world: ApprovalWorld = {
    ws,
    outside,
    stateDir,
    env,
    script: (turns) => {
      scripts += 1;
      return writeScript(outside.dir, { turns }, `script-${scripts}.json`);
    },
    cli: (args, extra = {}, stdin) =>
      runCli({
        bin,
        args,
        cwd: ws.dir,
        env: { ...env, ...extra },
        timeoutMs: 60_000,
        ...(stdin === undefined ? {} : { stdin }),
      }),
    run: async (turns, args = [], extra = {}) => {
      const script = await world.script(turns);
      const cli = await world.cli(['run', 'go', '--json', ...args], {
        TINY_CLAW_SCRIPT: script,
        ...extra,
      });
      let result: RunResult;
      try {
        result = JSON.parse(cli.stdout) as RunResult;
      } catch {
        throw new Error(`run printed no JSON (exit ${cli.code}):\n${cli.stderr}`);
      }
      return { cli, result };
    },
    decide: async (args, after = [{ text: 'done' }], extra = {}) =>
      world.cli(['approvals', ...args], { TINY_CLAW_SCRIPT: await world.script(after), ...extra }),
    record: async (id) => {
      const shown = await world.cli(['approvals', 'show', id, '--json']);
      if (shown.code !== 0) throw new Error(`approvals show ${id} failed: ${shown.stderr}`);
      return JSON.parse(shown.stdout) as Record<string, unknown>;
    },
    sessionFile: (result, kind) =>
      join(
        stateDir,
        'sessions',
        result.sessionKey,
        kind,
        `${kind === 'checkpoints' ? result.checkpointId : result.approvalId}.json`,
      ),
    cleanup: async () => {
      await ws.cleanup();
      await outside.cleanup();
    },
  };
  return world;
}

/**
 * Rewrite a JSON file in place (a test playing someone who edits tiny-claw's state by hand).
 *
 * @example
 * await editJson(path, (value) => { value.status = 'pending'; });
 */
export async function editJson(
  path: string,
  change: (value: Record<string, unknown>) => void,
): Promise<void> {
  const value = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  change(value);
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** What a CLI process run in a pseudo-terminal printed, and how it ended. */
export interface TerminalSession {
  /** Everything the terminal showed (stdout and stderr together, as a person sees them). */
  output: string;
  code: number | null;
}

/**
 * Run the CLI in a pseudo-terminal (util-linux `script`), so stdin and stdout are terminals, and
 * answer each approval question with the next of `answers` as soon as it is shown — driven by
 * the output, never by a clock. An answer is raw terminal input: `'y\r'`, `'\x03'` for Ctrl-C.
 *
 * @example
 * const session = await inTerminal(world, ['run', 'go'], ['y\r']);
 */
export function inTerminal(
  world: ApprovalWorld,
  args: string[],
  answers: string[],
  extra: Record<string, string> = {},
): Promise<TerminalSession> {
  const command = [process.execPath, bin, ...args].map(shellWord).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: world.ws.dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      SHELL: '/bin/sh',
      TERM: 'dumb',
      NO_COLOR: '1',
      ...world.env,
      ...extra,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const pending = [...answers];
  let output = '';
  let asked = 0;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    const questions = output.split('Approve? [y]es / [n]o / n <reason>:').length - 1;
    while (asked < questions) {
      asked += 1;
      const answer = pending.shift();
      if (answer !== undefined) child.stdin.write(answer);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ output, code });
    });
  });
}

function shellWord(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}
