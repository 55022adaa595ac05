import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import type { LLMRequest } from '../provider.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';
import { defineTool } from '../tool.js';

// The real ContextBuilder reading a real workdir: AGENTS.md and a project skill reach the model,
// and the skill's allowed-tools limits both what the model sees and what may run.
let workdir: string;
let wrote: string[];

const readTool = defineTool({
  name: 'read',
  description: 'read',
  parallelSafe: true,
  parameters: z.object({ path: z.string() }),
  run: async ({ path }) => ({ content: `contents of ${path}`, isError: false }),
});
const writeTool = defineTool({
  name: 'write',
  description: 'write',
  parallelSafe: false,
  parameters: z.object({ path: z.string(), content: z.string() }),
  run: async ({ path }) => {
    wrote.push(path);
    return { content: 'written', isError: false };
  },
});

beforeEach(async () => {
  workdir = await realpath(await mkdtemp(join(tmpdir(), 'tc-context-')));
  wrote = [];
  await writeFile(join(workdir, 'AGENTS.md'), 'Always answer in British English, mate.\n');
  await mkdir(join(workdir, '.claw/skills/review'), { recursive: true });
  await writeFile(
    join(workdir, '.claw/skills/review/SKILL.md'),
    '---\nname: review\ndescription: Review code without changing it\nallowed-tools: read\n---\nReview $ARGUMENTS carefully and never modify files.\n',
  );
});
afterEach(() => rm(workdir, { recursive: true, force: true }));

describe('project context in a run', () => {
  it('sends the AGENTS.md sentence and the explicitly invoked skill body as system messages', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'ok' }] });
    const agent = createAgent({ provider, tools: [readTool, writeTool], workdir });
    await agent.run('$review src/app.ts');
    const system = (provider.requests[0] as LLMRequest).messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n---\n');
    expect(system).toContain('Always answer in British English, mate.');
    expect(system).toContain('Review src/app.ts carefully and never modify files.');
    expect(system).toMatch(/Active skill \(explicit\): review/);
  });

  it('keeps write out of both the tool list and execution when the skill allows only read', async () => {
    const provider = new ScriptedProvider({
      turns: [
        { tool_calls: [{ name: 'write', arguments: { path: 'x.ts', content: 'boom' } }] },
        { text: 'done' },
      ],
    });
    const agent = createAgent({ provider, tools: [readTool, writeTool], workdir });
    const result = await agent.run('$review do it');
    expect(result.stopReason).toBe('final');
    expect(provider.requests[0]?.tools.map((t) => t.name)).toEqual(['read']);
    expect(wrote).toEqual([]);
    const answer = (provider.requests[1] as LLMRequest).messages.find((m) => m.role === 'tool');
    expect(answer?.metadata?.is_error).toBe(true);
    expect(answer?.content).toContain('unknown tool: "write"');
  });

  it('reads neither AGENTS.md nor skills when project context is off', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'ok' }] });
    const agent = createAgent({
      provider,
      tools: [readTool, writeTool],
      workdir,
      projectContext: false,
    });
    await agent.run('$review src/app.ts');
    const sent = JSON.stringify((provider.requests[0] as LLMRequest).messages);
    expect(sent).not.toContain('British English');
    expect(sent).not.toContain('carefully and never modify');
    expect(provider.requests[0]?.tools.map((t) => t.name)).toEqual(['read', 'write']);
  });
});
