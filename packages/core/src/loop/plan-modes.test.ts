import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  failTool,
  noteTool,
  runAndCapture,
  unansweredCalls,
} from '../agent/__fixtures__/agent-harness.js';
import { createAgent } from '../agent/create-agent.js';
import type { LLMRequest } from '../provider.js';
import { createMemoryStore } from '../store/memory-state-store.js';
import type { Script } from '../testing/script.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';

/** A planning reply with a PLAN.md and one checkbox per item. */
const planReply = (...items: string[]) =>
  `<PLAN_MD>\n# PLAN.md\n\nBuild it.\n</PLAN_MD>\n<TODO_MD>\n${items.map((item) => `- [ ] ${item}`).join('\n')}\n</TODO_MD>`;

describe('the plan modes', () => {
  async function planSetup(script: Script) {
    const provider = new ScriptedProvider(script);
    const files = createMemoryStore();
    const agent = createAgent({
      provider,
      tools: [noteTool, failTool],
      store: files,
      workdir: tmpdir(),
    });
    const session = await agent.session('planner');
    const store = files.plans(session);
    const readTodo = async () => (await store.read())?.todo;
    const memory = files.memory(session);
    const run = (prompt: string, options: Parameters<typeof agent.run>[1]) =>
      runAndCapture(agent, prompt, { session: 'planner', ...options });
    return { provider, memory, run, session, store, readTodo };
  }
  const lastUserText = (request: LLMRequest | undefined) =>
    request?.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';

  it('plan writes PLAN.md and TODO.md from one tool-less model call', async () => {
    const { run, provider, readTodo } = await planSetup({
      turns: [{ text: planReply('TC-001 Create files', 'Write tests') }],
    });
    const result = (await run('build a CLI', { mode: 'plan' })).result;
    expect(result).toMatchObject({
      stopReason: 'final',
      steps: 1,
      mode: 'plan',
      plan: '# PLAN.md\n\nBuild it.\n',
    });
    expect(result.text.endsWith('Next TODO: TC-001 Create files')).toBe(true);
    expect(await readTodo()).toBe(
      '# TODO.md\n\n- [ ] TC-001 Create files\n- [ ] TC-002 Write tests\n',
    );
    expect(provider.requests[0]).toMatchObject({ tools: [], toolChoice: 'none' });
    expect(provider.requests[0]?.messages.at(-1)).toMatchObject({ role: 'system' });
    expect(provider.requests[0]?.messages.at(-1)?.content).toContain('Plan Mode is ON');
  });

  it('plan shows an existing plan without a model call and remembers where it is', async () => {
    const { run, provider, memory, store } = await planSetup({
      turns: [{ text: planReply('TC-001 Create files') }],
    });
    const first = (await run('build a CLI', { mode: 'plan' })).result;
    const second = (await run('show it', { mode: 'plan' })).result;
    expect(provider.requests).toHaveLength(1);
    expect(second).toMatchObject({
      stopReason: 'final',
      steps: 1,
      text: first.text,
      plan: first.plan,
    });
    expect((await memory.readRecent()).slice(-2)).toEqual([
      'last_prompt: show it',
      `last_response: session_plan=${store.dir}\nnext_todo=TC-001 Create files`,
    ]);
  });

  it('plan blocks tool calls, answers every one and writes no plan files', async () => {
    const { run, store } = await planSetup({
      turns: [
        {
          text: 'let me look first',
          tool_calls: [
            { name: 'note', arguments: { text: 'a' } },
            { name: 'note', arguments: { text: 'b' } },
          ],
        },
      ],
    });
    const { result, state } = await run('build', { mode: 'plan' });
    expect(result).toMatchObject({ stopReason: 'tool_policy_blocked', text: 'let me look first' });
    expect(result.plan).toBeUndefined();
    expect(await store.read()).toBeUndefined();
    expect(unansweredCalls(state.messages)).toEqual([]);
    const results = state.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual([
      'Tool calls are not allowed in the plan phase; this call was not executed.',
      'Tool calls are not allowed in the plan phase; this call was not executed.',
    ]);
  });

  it('plan-act plans, executes the first TODO, marks it done and goes on to the next', async () => {
    const { run, provider, readTodo } = await planSetup({
      turns: [
        { text: planReply('TC-001 Create files', 'TC-002 Write tests') },
        { tool_calls: [{ name: 'note', arguments: { text: 'files' } }] },
        { text: 'Created.\nPLAN_STEP_STATUS: completed' },
        { text: 'Tests written.\nPLAN_STEP_STATUS: completed' },
      ],
    });
    const result = (await run('build a CLI', { mode: 'plan-act' })).result;
    expect(result).toMatchObject({
      stopReason: 'final',
      steps: 4,
      mode: 'plan-act',
      text: 'Tests written.\nPLAN_STEP_STATUS: completed',
      plan: '# PLAN.md\n\nBuild it.\n',
    });
    expect(provider.requests[0]).toMatchObject({ tools: [], toolChoice: 'none' });
    const act = provider.requests[1];
    expect(act?.toolChoice).toBe('auto');
    expect(act?.tools.map((t) => t.name)).toEqual(['fail', 'note']);
    expect(lastUserText(act).startsWith('Plan-Act execution phase is ON')).toBe(true);
    expect(lastUserText(act)).toContain('Current TODO: TC-001 Create files');
    expect(lastUserText(provider.requests[3])).toContain('Current TODO: TC-002 Write tests');
    expect(lastUserText(provider.requests[3])).toContain('- [x] TC-001 Create files');
    expect(await readTodo()).toBe(
      '# TODO.md\n\n- [x] TC-001 Create files\n- [x] TC-002 Write tests\n',
    );
  });

  it('plan-act records a short blocker and keeps the TODO open when the model is blocked', async () => {
    const { run, provider, readTodo } = await planSetup({
      turns: [
        { text: planReply('TC-001 Publish', 'TC-002 Announce') },
        {
          text: `I tried ${'many things '.repeat(100)}.\n\nThe registry is offline.\nPLAN_STEP_STATUS: blocked`,
        },
      ],
    });
    const result = (await run('release', { mode: 'plan-act' })).result;
    expect(result).toMatchObject({ stopReason: 'final', steps: 2 });
    expect(provider.requests).toHaveLength(2);
    expect(await readTodo()).toBe(
      '# TODO.md\n\n- [ ] TC-001 Publish\n- [ ] TC-002 Announce\n\n## Blockers\n\n- TC-001: The registry is offline.\n',
    );
  });

  it('plan-act keeps the TODO open when a tool failed during it, even if the model says completed', async () => {
    const { run, provider, readTodo } = await planSetup({
      turns: [
        { text: planReply('TC-001 Build', 'TC-002 Ship') },
        { tool_calls: [{ name: 'fail' }] },
        { text: 'Done anyway.\nPLAN_STEP_STATUS: completed' },
      ],
    });
    const result = (await run('build', { mode: 'plan-act' })).result;
    expect(result).toMatchObject({ stopReason: 'final', steps: 3 });
    expect(provider.requests).toHaveLength(3);
    const todo = await readTodo();
    expect(todo).toContain('- [ ] TC-001 Build');
    expect(todo).toContain(
      '- TC-001: Reported completed, but a tool call failed while working on this item: fail: ',
    );
  });

  it('plan-act regenerates the plan on needs_replan, keeping completed items, then continues', async () => {
    const { run, provider, readTodo } = await planSetup({
      turns: [
        { text: planReply('TC-001 Setup', 'TC-002 Call the REST API') },
        { text: 'Set up.\nPLAN_STEP_STATUS: completed' },
        { text: 'PLAN_STEP_STATUS: needs_replan\nREST is gone; the service speaks GraphQL now.' },
        {
          text: '<PLAN_MD># PLAN.md\n\nUse GraphQL.</PLAN_MD><TODO_MD>- [ ] TC-003 Call the GraphQL API</TODO_MD>',
        },
        { text: 'Called.\nPLAN_STEP_STATUS: completed' },
      ],
    });
    const result = (await run('integrate', { mode: 'plan-act' })).result;
    expect(result).toMatchObject({
      stopReason: 'final',
      steps: 5,
      plan: '# PLAN.md\n\nUse GraphQL.\n',
    });
    const replan = provider.requests[3];
    expect(replan).toMatchObject({ tools: [], toolChoice: 'none' });
    expect(lastUserText(replan)).toContain(
      'While executing TC-002 Call the REST API you asked for a new plan: REST is gone; the service speaks GraphQL now.',
    );
    expect(lastUserText(replan)).toContain('Keep every completed item');
    expect(lastUserText(provider.requests[4])).toContain(
      'Current TODO: TC-003 Call the GraphQL API',
    );
    expect(await readTodo()).toBe(
      '# TODO.md\n\n- [x] TC-001 Setup\n- [x] TC-003 Call the GraphQL API\n',
    );
  });

  it('plan-act ends with max_steps_exhausted when needs_replan comes on the last step', async () => {
    const { run, store, readTodo } = await planSetup({
      turns: [{ text: 'PLAN_STEP_STATUS: needs_replan\nwrong approach' }],
    });
    await store.createMissing({ plan: '# PLAN.md\n', todo: '- [ ] TC-001 A\n' });
    const result = (await run('go', { mode: 'plan-act', maxSteps: 1 })).result;
    expect(result).toMatchObject({ stopReason: 'max_steps_exhausted', steps: 1 });
    expect(await readTodo()).toBe('- [ ] TC-001 A\n');
  });

  it('plan-act counts planning toward max steps', async () => {
    const { run, provider, store } = await planSetup({
      turns: [{ text: planReply('TC-001 A') }, { text: 'never asked' }],
    });
    const result = (await run('go', { mode: 'plan-act', maxSteps: 1 })).result;
    expect(result).toMatchObject({ stopReason: 'max_steps_exhausted', steps: 1, maxSteps: 1 });
    expect(result.text.endsWith('Next TODO: TC-001 A')).toBe(true);
    expect(provider.requests).toHaveLength(1);
    expect((await store.read())?.next?.id).toBe('TC-001');
  });

  it('plan-act blocks tool calls in the plan phase and answers every call', async () => {
    const { run, store } = await planSetup({
      turns: [{ tool_calls: [{ name: 'note', arguments: { text: 'a' } }, { name: 'fail' }] }],
    });
    const { result, state } = await run('go', { mode: 'plan-act' });
    expect(result).toMatchObject({ stopReason: 'tool_policy_blocked', steps: 1 });
    expect(await store.read()).toBeUndefined();
    expect(unansweredCalls(state.messages)).toEqual([]);
  });

  it('plan-act resumes at the next open TODO and stops after it when no step is left', async () => {
    const { run, provider, store } = await planSetup({
      turns: [{ text: 'Done.\nPLAN_STEP_STATUS: completed' }],
    });
    await store.createMissing({
      plan: '# PLAN.md\n',
      todo: '- [x] TC-001 A\n- [ ] TC-002 B\n- [ ] TC-003 C\n',
    });
    const result = (await run('go on', { mode: 'plan-act', maxSteps: 1 })).result;
    expect(result).toMatchObject({ stopReason: 'final', steps: 1, plan: '# PLAN.md\n' });
    expect(provider.requests[0]?.toolChoice).toBe('auto');
    expect(lastUserText(provider.requests[0])).toContain('Current TODO: TC-002 B');
    expect((await store.read())?.next?.id).toBe('TC-003');
  });

  it('plan-act with every TODO done answers at once: steps 0, no model call, no memory', async () => {
    const { run, provider, memory, store } = await planSetup({ turns: [{ text: 'never' }] });
    await store.createMissing({ plan: '# PLAN.md\n', todo: '- [x] TC-001 A\n' });
    const result = (await run('go', { mode: 'plan-act' })).result;
    expect(result).toMatchObject({ stopReason: 'final', steps: 0, plan: '# PLAN.md\n' });
    expect(result.text.endsWith('All TODO items are complete.')).toBe(true);
    expect(provider.requests).toHaveLength(0);
    expect(await memory.readRecent()).toEqual([]);
  });
});
