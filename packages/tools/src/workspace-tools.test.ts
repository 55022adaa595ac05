import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigurationError, type Tool, type ToolContext, type ToolOutput } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxStatus } from './sandbox/sandbox-options.js';
import { sandboxStatus } from './sandbox/sandbox-status.js';
import {
  WORKSPACE_TOOL_NAMES,
  type WorkspaceToolsOptions,
  workspaceTools,
} from './workspace-tools.js';

let base: string;
let root: string;
let elsewhere: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-workspace-')));
  root = path.join(base, 'project');
  elsewhere = path.join(base, 'elsewhere');
  await mkdir(root);
  await mkdir(elsewhere);
  await writeFile(path.join(root, 'a.txt'), 'hello project\n');
  await writeFile(path.join(elsewhere, 'a.txt'), 'hello elsewhere\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function ctx(workdir = root, runId = 'run-1'): ToolContext {
  return {
    workdir,
    runId,
    signal: new AbortController().signal,
    toolCallId: 'call-1',
    visibleTools: [...WORKSPACE_TOOL_NAMES],
  };
}

function byName(tools: Tool[], name: string): Tool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no ${name} tool`);
  return tool;
}

async function call(
  tools: Tool[],
  name: string,
  args: Record<string, unknown>,
  context = ctx(),
): Promise<ToolOutput> {
  const tool = byName(tools, name);
  return tool.run(tool.parse(args), context);
}

describe('workspaceTools returns the workspace tools', () => {
  it('all four, in the documented order, by default', () => {
    expect(workspaceTools({ workdir: root }).map((tool) => tool.name)).toEqual([
      'read',
      'write',
      'edit',
      'bash',
    ]);
  });

  it('only the enabled ones, in the documented order whatever order they are listed in', () => {
    const tools = workspaceTools({ workdir: root, enabled: ['edit', 'read'] });
    expect(tools.map((tool) => tool.name)).toEqual(['read', 'edit']);
  });
});

describe('a workspace tool describes a failure once', () => {
  it('in its failure (kind and its own code), never in the metadata, which keeps only its details', async () => {
    const tools = workspaceTools({ workdir: root, sandbox: { mode: 'off' } });
    const failures = [
      await call(tools, 'read', { path: 'missing.txt' }),
      await call(tools, 'write', { path: 'a.txt', content: 'x' }),
      await call(tools, 'edit', { path: 'a.txt', old_text: 'x', new_text: 'y' }),
      await call(tools, 'bash', { command: 'exit 3' }),
    ];
    expect(failures.map((out) => [out.isError, out.failure?.kind, out.failure?.code])).toEqual([
      [true, 'not_found', 'not_found'],
      [true, 'stale_read', 'file_not_read'],
      [true, 'stale_read', 'file_not_read'],
      [true, 'command_failed', 'bash_command_failed'],
    ]);
    const described = ['error_type', 'tool_error_type', 'is_error', 'retryable', 'attempt'];
    for (const out of failures) {
      expect(Object.keys(out.metadata ?? {}).filter((key) => described.includes(key))).toEqual([]);
      // The executor's verdict is the executor's to give.
      expect(out.failure).not.toHaveProperty('retryable');
      expect(out.failure).not.toHaveProperty('attempt');
    }
    expect(failures[3]?.metadata).toMatchObject({ exit_code: 3, sandbox: 'off' });
  });
});

describe('workspaceTools share one read ledger', () => {
  it('a file read through its read tool can be edited through its edit tool', async () => {
    const tools = workspaceTools({ workdir: root });
    expect((await call(tools, 'read', { path: 'a.txt' })).isError).toBe(false);
    const edited = await call(tools, 'edit', {
      path: 'a.txt',
      old_text: 'project',
      new_text: 'world',
    });
    expect(edited.isError, edited.content).toBe(false);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('hello world\n');
  });

  it('an edit of a file the run has not read is refused as a stale read', async () => {
    const tools = workspaceTools({ workdir: root });
    const out = await call(tools, 'edit', { path: 'a.txt', old_text: 'project', new_text: 'x' });
    expect(out.failure?.kind).toBe('stale_read');
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('hello project\n');
  });

  it('a read in one run does not let another run write', async () => {
    const tools = workspaceTools({ workdir: root });
    await call(tools, 'read', { path: 'a.txt' }, ctx(root, 'run-1'));
    const out = await call(tools, 'write', { path: 'a.txt', content: 'x' }, ctx(root, 'run-2'));
    expect(out.failure?.kind).toBe('stale_read');
  });

  it('two calls of workspaceTools keep separate ledgers', async () => {
    const first = workspaceTools({ workdir: root });
    const second = workspaceTools({ workdir: root });
    await call(first, 'read', { path: 'a.txt' });
    const out = await call(second, 'edit', { path: 'a.txt', old_text: 'project', new_text: 'x' });
    expect(out.failure?.kind).toBe('stale_read');
  });
});

describe('the read ledger survives a pause for approval', () => {
  it('a read before the pause lets an edit run after it, in a new set of tools under a new run id', async () => {
    const before = workspaceTools({ workdir: root });
    expect((await call(before, 'read', { path: 'a.txt' }, ctx(root, 'paused-run'))).isError).toBe(
      false,
    );
    const carries = new Set(before.map((tool) => tool.carry?.key).filter(Boolean));
    expect(carries.size).toBe(1);
    const saved = byName(before, 'edit').carry?.save('paused-run');
    // Another process: new tools, a new run id, the saved state handed back.
    const after = workspaceTools({ workdir: root });
    byName(after, 'read').carry?.restore('resumed-run', JSON.parse(JSON.stringify(saved)));
    const edit = { path: 'a.txt', old_text: 'hello', new_text: 'goodbye' };
    const out = await call(after, 'edit', edit, ctx(root, 'resumed-run'));
    expect(out.isError).toBe(false);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('goodbye project\n');
  });

  it('still refuses the change when the file changed during the pause, and ignores malformed saved state', async () => {
    const before = workspaceTools({ workdir: root });
    await call(before, 'read', { path: 'a.txt' }, ctx(root, 'paused-run'));
    const saved = byName(before, 'read').carry?.save('paused-run');
    await writeFile(path.join(root, 'a.txt'), 'changed meanwhile\n');
    const after = workspaceTools({ workdir: root });
    const carry = byName(after, 'write').carry;
    carry?.restore('resumed-run', saved);
    carry?.restore('other-run', { '/x': { size: 'big' } });
    const edit = { path: 'a.txt', old_text: 'changed', new_text: 'x' };
    expect((await call(after, 'edit', edit, ctx(root, 'resumed-run'))).failure?.kind).toBe(
      'stale_read',
    );
    expect((await call(after, 'edit', edit, ctx(root, 'other-run'))).failure?.kind).toBe(
      'stale_read',
    );
  });
});

describe('workspaceTools are bound to their workdir', () => {
  it('a ctx.workdir elsewhere moves none of the four tools', async () => {
    const tools = workspaceTools({ workdir: root });
    const away = ctx(elsewhere);
    expect((await call(tools, 'read', { path: 'a.txt' }, away)).content).toContain('hello project');
    const edited = await call(
      tools,
      'edit',
      { path: 'a.txt', old_text: 'hello', new_text: 'hi' },
      away,
    );
    expect(edited.isError, edited.content).toBe(false);
    expect((await call(tools, 'write', { path: 'b.txt', content: 'b\n' }, away)).isError).toBe(
      false,
    );
    expect((await call(tools, 'bash', { command: 'pwd' }, away)).content).toContain(root);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('hi project\n');
    expect(await readFile(path.join(root, 'b.txt'), 'utf8')).toBe('b\n');
    expect(await readFile(path.join(elsewhere, 'a.txt'), 'utf8')).toBe('hello elsewhere\n');
  });

  it('resolves a relative workdir once, against the current directory at creation', async () => {
    const relative = path.relative(process.cwd(), root);
    const tools = workspaceTools({ workdir: relative });
    expect((await call(tools, 'read', { path: 'a.txt' }, ctx(elsewhere))).content).toContain(
      'hello project',
    );
  });

  it('applies protectedPaths to every tool', async () => {
    await mkdir(path.join(root, '.state'));
    const tools = workspaceTools({ workdir: root, protectedPaths: ['.state'] });
    const written = await call(tools, 'write', { path: '.state/x.json', content: '{}' });
    expect(written.failure?.kind).toBe('protected_path');
    const ran = await call(tools, 'bash', { command: 'pwd', cwd: '.state' });
    expect(ran.failure?.kind).toBe('protected_path');
  });
});

describe('workspaceTools keep the agent’s own settings out of every tool’s reach', () => {
  const usable = sandboxStatus('bwrap').active === 'bwrap';
  const KEY = 'sk-settings-0123456789';

  beforeEach(async () => {
    await mkdir(path.join(root, 'xdg', 'tiny-claw'), { recursive: true });
    await writeFile(path.join(root, 'xdg', 'tiny-claw', '.env'), `OPENAI_API_KEY=${KEY}\n`);
    await writeFile(path.join(root, 'team.env'), `ANTHROPIC_API_KEY=${KEY}\n`);
  });

  const settingsPaths = ['xdg/tiny-claw', 'team.env'];

  it('read, write and edit refuse a settings path with advice not to look for another way', async () => {
    const tools = workspaceTools({ workdir: root, settingsPaths, sandbox: 'off' });
    const outputs = [
      await call(tools, 'read', { path: 'xdg/tiny-claw/.env' }),
      await call(tools, 'read', { path: 'xdg/../team.env' }),
      await call(tools, 'write', { path: 'xdg/tiny-claw/mcp.json', content: '{}' }),
      await call(tools, 'edit', { path: 'team.env', old_text: 'A', new_text: 'B' }),
    ];
    for (const out of outputs) {
      expect(out.isError).toBe(true);
      expect(out.failure?.kind).toBe('protected_path');
      expect(out.failure?.advice).toContain('ask the user');
      expect(out.content).toContain('tiny-claw keeps its own settings');
      expect(out.content).not.toContain(KEY);
    }
    expect(existsSync(path.join(root, 'xdg', 'tiny-claw', 'mcp.json'))).toBe(false);
    expect(await readFile(path.join(root, 'team.env'), 'utf8')).toContain(KEY);
    expect((await call(tools, 'read', { path: 'a.txt' })).content).toContain('hello project');
  });

  it.runIf(usable)('sandboxed commands do not see them', async () => {
    const tools = workspaceTools({ workdir: root, settingsPaths, sandbox: 'bwrap' });
    const out = await call(tools, 'bash', {
      command: 'cat xdg/tiny-claw/.env team.env; echo "entries=$(ls -A xdg/tiny-claw | wc -l)"',
    });
    expect(out.content).not.toContain(KEY);
    expect(out.content).toContain('entries=0');
  });
});

describe('workspaceTools refuses a bad configuration with a ConfigurationError', () => {
  function configurationError(options: unknown): ConfigurationError {
    try {
      workspaceTools(options as WorkspaceToolsOptions);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      return error as ConfigurationError;
    }
    throw new Error('expected a ConfigurationError');
  }

  it('an unknown tool name, listing the available names', () => {
    const error = configurationError({ workdir: root, enabled: ['read', 'grep'] });
    expect(error.message).toContain('"grep"');
    expect(error.message).toContain('available: read, write, edit, bash');
  });

  it('a tool named twice', () => {
    const error = configurationError({ workdir: root, enabled: ['read', 'read'] });
    expect(error.message).toContain('read more than once');
  });

  it('an empty workdir or options that are not an object, saying what to pass', () => {
    expect(configurationError({ workdir: '  ' }).message).toContain('workdir is empty');
    expect(configurationError({ workdir: 7 }).message).toContain('workdir must be a string');
    expect(configurationError(null).message).toContain(
      "workspaceTools({ enabled: ['read', 'edit'] })",
    );
  });

  it('a relative settings path without a workdir to resolve it against', () => {
    expect(configurationError({ settingsPaths: ['.env'] }).message).toContain(
      'settingsPaths has the relative path ".env" but no workdir',
    );
  });

  it('a workdir that does not exist or is a file', () => {
    const missing = configurationError({ workdir: path.join(base, 'nope') });
    expect(missing.message).toContain('ENOENT');
    expect(missing.message).toContain('workdir?: an existing directory');
    const file = configurationError({ workdir: path.join(root, 'a.txt') });
    expect(file.message).toContain('is not a directory');
  });

  it('an option it does not know, so a typo is not silently ignored', () => {
    expect(configurationError({ workdir: root, enable: ['read'] }).message).toMatch(/enable/);
  });

  it('a sandbox mode it does not know, or a relative path to hide, naming what is accepted', () => {
    const mode = configurationError({ workdir: root, sandbox: 'docker' });
    expect(mode.message).toMatch(/"auto", "bwrap" or "off"/);
    const hide = configurationError({ workdir: root, sandbox: { hide: ['secrets'] } });
    expect(hide.message).toContain('hide paths must be absolute');
  });

  it('a bwrap sandbox that cannot work here, naming what is missing and the setting to change', () => {
    const bwrapPath = path.join(base, 'no-such-bwrap');
    const error = configurationError({ workdir: root, sandbox: { mode: 'bwrap', bwrapPath } });
    expect(error.message).toContain(`no executable bwrap at ${bwrapPath}`);
    expect(error.message).toContain('TINY_CLAW_SANDBOX=auto');
    // Without bash there is nothing to confine.
    const tools = workspaceTools({
      workdir: root,
      enabled: ['read'],
      sandbox: { mode: 'bwrap', bwrapPath },
    });
    expect(tools.map((tool) => tool.name)).toEqual(['read']);
  });
});

describe('workspaceTools run bash in the sandbox it is given', () => {
  const usable = sandboxStatus('bwrap').active === 'bwrap';

  it.runIf(usable)('auto by default: bash cannot write outside the workdir', async () => {
    // Outside /tmp, which the sandbox replaces with a private one.
    const visible = await mkdtemp(path.join(existsSync('/var/tmp') ? '/var/tmp' : base, 'tc-ws-'));
    try {
      const tools = workspaceTools({ workdir: root });
      const out = await call(tools, 'bash', { command: `echo x > ${visible}/x.txt` });
      expect(out.isError).toBe(true);
      expect(out.metadata?.sandbox).toBe('bwrap');
      expect(existsSync(path.join(visible, 'x.txt'))).toBe(false);
    } finally {
      await rm(visible, { recursive: true, force: true });
    }
  });

  it('off, or auto without bubblewrap, runs bash unconfined (reporting the fallback once)', async () => {
    const off = workspaceTools({ workdir: root, sandbox: 'off' });
    expect((await call(off, 'bash', { command: 'echo hi' })).metadata?.sandbox).toBe('off');
    const fallbacks: SandboxStatus[] = [];
    const fallback = workspaceTools({
      workdir: root,
      sandbox: { mode: 'auto', bwrapPath: path.join(base, 'no-such-bwrap') },
      onSandboxFallback: (status) => fallbacks.push(status),
    });
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatchObject({ mode: 'auto', active: 'off' });
    expect((await call(fallback, 'bash', { command: 'echo hi' })).metadata?.sandbox).toBe('off');
  });

  it.runIf(usable)('the options object turns the network on and hides more paths', async () => {
    await mkdir(path.join(root, 'vault'));
    await writeFile(path.join(root, 'vault', 'token'), 'SECRET-TOKEN\n');
    const tools = workspaceTools({
      workdir: root,
      sandbox: { mode: 'bwrap', network: true, hide: [path.join(root, 'vault')] },
    });
    const out = await call(tools, 'bash', { command: 'cat vault/token' });
    expect(out.isError).toBe(true);
    expect(out.content).not.toContain('SECRET-TOKEN');
    expect(byName(tools, 'bash').description).not.toContain('no network');
  });
});
