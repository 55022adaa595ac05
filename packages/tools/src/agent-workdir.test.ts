import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assessCall, createApprovalGate } from '@tiny-claw/approval';
import { type AgentOptions, createAgent, type RunEvent, type ToolCall } from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { createFileStore } from '@tiny-claw/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceTools } from './index.js';

let base: string;
let project: string;
let elsewhere: string;
let state: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-agent-workdir-')));
  project = path.join(base, 'project');
  elsewhere = path.join(base, 'elsewhere');
  state = path.join(base, 'state');
  await mkdir(project);
  await mkdir(elsewhere);
  await mkdir(path.join(project, '.git'));
  await writeFile(path.join(project, 'a.txt'), 'hello project\n');
  await writeFile(path.join(project, 'package.json'), '{"name":"p"}\n');
  await writeFile(path.join(elsewhere, 'a.txt'), 'hello elsewhere\n');
  await writeFile(path.join(base, 'outside.txt'), 'OUTSIDE-SECRET\n');
  await symlink(path.join(base, 'outside.txt'), path.join(project, 'link.txt'));
});
afterEach(() => rm(base, { recursive: true, force: true }));

type Call = Omit<ToolCall, 'id'> & { id?: string };

/** Run an agent that makes `calls` in one turn; the tool answers, in call order. */
async function answers(calls: Call[], options: Partial<AgentOptions> = {}): Promise<string[]> {
  const provider = new ScriptedProvider({ turns: [{ tool_calls: calls }, { text: 'done' }] });
  const events: RunEvent[] = [];
  await createAgent({
    provider,
    workdir: project,
    tools: workspaceTools({ sandbox: 'off', protectedPaths: ['.state'] }),
    ...options,
  }).run('go', { onEvent: (event) => void events.push(event) });
  return events.flatMap((e) => (e.type === 'tool.end' ? [e.output.content] : []));
}

describe('workspace tools without a workdir of their own work in the agent’s workdir', () => {
  it('reads, writes, edits and runs commands there, not in the current directory', async () => {
    expect(process.cwd()).not.toBe(project);
    const out = await answers([
      { name: 'read', arguments: { path: 'a.txt' } },
      { name: 'write', arguments: { path: 'new.txt', content: 'made here\n' } },
      { name: 'edit', arguments: { path: 'a.txt', old_text: 'hello', new_text: 'bye' } },
      { name: 'bash', arguments: { command: 'pwd; cat new.txt' } },
    ]);
    expect(out[0]).toContain('1: hello project');
    expect(await readFile(path.join(project, 'new.txt'), 'utf8')).toBe('made here\n');
    expect(existsSync(path.join(process.cwd(), 'new.txt'))).toBe(false);
    expect(await readFile(path.join(project, 'a.txt'), 'utf8')).toBe('bye project\n');
    expect(out[3]).toContain(project);
    expect(out[3]).toContain('made here');
  });

  it.each([
    ['a path up and out', { name: 'read', arguments: { path: '../outside.txt' } }],
    ['an absolute path outside', { name: 'read', arguments: { path: '__OUTSIDE__' } }],
    ['a symlink that leads outside', { name: 'read', arguments: { path: 'link.txt' } }],
    ['a write into .git', { name: 'write', arguments: { path: '.git/hooks/x', content: 'x' } }],
    [
      'a write into a protected path',
      { name: 'write', arguments: { path: '.state/x', content: 'x' } },
    ],
    [
      'a command run in a protected path',
      { name: 'bash', arguments: { command: 'ls', cwd: '.state' } },
    ],
    ['a command run outside', { name: 'bash', arguments: { command: 'ls', cwd: '..' } }],
  ])('confines them to it exactly as a pinned workdir: refuses %s', async (_case, call) => {
    const args = JSON.parse(
      JSON.stringify(call.arguments).replace('__OUTSIDE__', path.join(base, 'outside.txt')),
    );
    await mkdir(path.join(project, '.state'), { recursive: true });
    const [answer] = await answers([{ name: call.name, arguments: args }]);
    expect(answer).toMatch(/refused|outside|protected|denied|not allowed|cannot/i);
    expect(answer).not.toContain('OUTSIDE-SECRET');
    expect(existsSync(path.join(project, '.git', 'hooks', 'x'))).toBe(false);
    expect(existsSync(path.join(project, '.state', 'x'))).toBe(false);
  });

  it('keeps a workdir given to workspaceTools pinned, whatever the agent’s', async () => {
    const [answer] = await answers([{ name: 'read', arguments: { path: 'a.txt' } }], {
      tools: workspaceTools({ workdir: elsewhere, enabled: ['read'] }),
    });
    expect(answer).toContain('1: hello elsewhere');
  });
});

describe('a paused run of an agent with a workdir', () => {
  const calls: Call[] = [
    { name: 'read', arguments: { path: 'package.json' } },
    { name: 'write', arguments: { path: 'package.json', content: '{"name":"q"}\n' } },
  ];
  // The resuming process's model is asked only after the approved call has run.
  const agentIn = (workdir: string, resuming = false) =>
    createAgent({
      provider: new ScriptedProvider({
        turns: resuming ? [{ text: 'done' }] : [{ tool_calls: calls }, { text: 'done' }],
      }),
      workdir,
      tools: workspaceTools({ enabled: ['read', 'write'] }),
      store: createFileStore(state),
      approvals: createApprovalGate({
        store: createFileStore(state),
        assess: (call, ctx) => assessCall(call, { workdir: ctx.workdir }),
      }),
    });

  it('is judged in that workdir and resumes from a process whose current directory differs', async () => {
    const cwd = process.cwd();
    try {
      process.chdir(elsewhere);
      const paused = await agentIn(project).run('rename the package');
      expect(paused.stopReason).toBe('approval_required');
      process.chdir(base);
      const resumed = await agentIn(project, true).resume(paused.approvalId as string, {
        decision: 'approve',
        actor: 'cli:alice',
      });
      expect(resumed.stopReason).toBe('final');
    } finally {
      process.chdir(cwd);
    }
    expect(await readFile(path.join(project, 'package.json'), 'utf8')).toBe('{"name":"q"}\n');
    expect(existsSync(path.join(elsewhere, 'package.json'))).toBe(false);
  });
});
