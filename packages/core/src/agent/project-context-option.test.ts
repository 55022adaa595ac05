import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ProjectContext, ProjectContextInput } from '../context/project-context.js';
import { coreSystemPrompt } from '../context/strings.js';
import { ConfigurationError } from '../errors.js';
import type { LLMRequest } from '../provider.js';
import type { SessionRef } from '../session/session-ref.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';
import { defineTool } from '../tool.js';
import { type AgentOptions, createAgent } from './create-agent.js';

let workdir: string;

beforeEach(async () => {
  workdir = await realpath(await mkdtemp(join(tmpdir(), 'tiny-claw-project-option-')));
  await writeFile(join(workdir, 'AGENTS.md'), 'Always answer in British English, mate.\n');
  await mkdir(join(workdir, '.claw/skills/review'), { recursive: true });
  await writeFile(
    join(workdir, '.claw/skills/review/SKILL.md'),
    '---\nname: review\ndescription: Review code\nallowed-tools: look\n---\nReview $ARGUMENTS.\n',
  );
});
afterEach(() => rm(workdir, { recursive: true, force: true }));

const look = defineTool({
  name: 'look',
  description: 'looks',
  parameters: z.object({}),
  run: () => 'seen',
});
const poke = defineTool({
  name: 'poke',
  description: 'pokes',
  parameters: z.object({}),
  run: () => 'poked',
});

/** The first request of one run of `$review src/app.ts` by an agent built with `extra`. */
async function firstRequest(extra: Partial<AgentOptions>): Promise<LLMRequest> {
  const provider = new ScriptedProvider({ turns: [{ text: 'ok' }] });
  const warnings: string[] = [];
  const logger = {
    debug: () => undefined,
    info: (line: string) => warnings.push(line),
    warn: (line: string) => warnings.push(line),
    error: (line: string) => warnings.push(line),
  };
  await createAgent({ provider, workdir, tools: [look, poke], logger, ...extra }).run(
    '$review src/app.ts',
  );
  expect(warnings).toEqual([]);
  return provider.requests[0] as LLMRequest;
}

describe('an agent reads no project file unless given a project context', () => {
  it('sends neither AGENTS.md nor skills by default, even when the workdir has them', async () => {
    const request = await firstRequest({});
    expect(request.messages).toEqual([
      { role: 'system', content: coreSystemPrompt },
      { role: 'user', content: '$review src/app.ts' },
    ]);
    expect(request.tools.map((tool) => tool.name)).toEqual(['look', 'poke']);
  });

  it('reads false, the old way to turn it off, as none', async () => {
    const request = await firstRequest({ projectContext: false as unknown as ProjectContext });
    expect(request.messages).toHaveLength(2);
    expect(JSON.stringify(request.messages)).not.toContain('British English');
  });
});

describe('projectContext must be a project context', () => {
  it('refuses true, the old default, with a ConfigurationError naming workspaceContext() from @tiny-claw/workspace', () => {
    const provider = new ScriptedProvider({ turns: [] });
    const build = () =>
      createAgent({ provider, projectContext: true as unknown as ProjectContext });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(/projectContext: workspaceContext\(\)/);
    expect(build).toThrow(/@tiny-claw\/workspace/);
  });

  it('refuses an object without a load method', () => {
    const provider = new ScriptedProvider({ turns: [] });
    expect(() =>
      createAgent({ provider, projectContext: { read: () => [] } as unknown as ProjectContext }),
    ).toThrow(/load\(\{ prompt, workdir \}\)/);
  });
});

describe('a given project context shapes every run', () => {
  it('is asked with the prompt and the workdir, and its skill narrows the tools shown', async () => {
    const asked: ProjectContextInput[] = [];
    const projectContext: ProjectContext = {
      load: async (input) => {
        asked.push(input);
        return { system: ['Project says hi.'], allowedTools: ['LOOK'], warnings: [] };
      },
    };
    const request = await firstRequest({ projectContext });
    expect(asked).toEqual([{ prompt: '$review src/app.ts', workdir }]);
    expect(request.messages.map((m) => m.content)).toEqual([
      coreSystemPrompt,
      'Project says hi.',
      '$review src/app.ts',
    ]);
    expect(request.tools.map((tool) => tool.name)).toEqual(['look']);
  });

  it('is asked again for a child run a tool starts, with the child prompt', async () => {
    const asked: string[] = [];
    const projectContext: ProjectContext = {
      load: async ({ prompt }) => {
        asked.push(prompt);
        return { system: [], warnings: [] };
      },
    };
    const delegate = defineTool({
      name: 'delegate',
      description: 'asks a child',
      parameters: z.object({}),
      run: async (_input, ctx) => {
        const session = ctx.session as SessionRef;
        const child = await ctx.subagents?.run({
          prompt: 'child task',
          instructions: 'You are a child.',
          session: { ...session, key: `${session.key}-child`, source: 'subagent' },
          maxSteps: 2,
          tools: [],
        });
        return child?.text ?? 'no child';
      },
    });
    const provider = new ScriptedProvider({
      turns: [{ tool_calls: [{ name: 'delegate' }] }, { text: 'child done' }, { text: 'done' }],
    });
    const agent = createAgent({ provider, workdir, tools: [delegate], projectContext });
    expect((await agent.run('parent task')).text).toBe('done');
    expect(asked).toEqual(['parent task', 'child task']);
  });
});
