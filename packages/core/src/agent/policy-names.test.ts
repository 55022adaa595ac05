import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, defineTool, type Tool } from '../index.js';
import { ScriptedProvider } from '../testing/index.js';

const tool = (name: string, extra: { subagentTools?: string[] } = {}): Tool =>
  defineTool({
    name,
    description: `the ${name} tool`,
    parameters: z.object({}),
    run: () => name,
    ...extra,
  }) as Tool;

const tools = [tool('bash'), tool('read'), tool('edit')];
const provider = () => new ScriptedProvider({ turns: [{ text: 'ok' }] });

describe('a policy name that is not one of the agent’s tools is a ConfigurationError naming the closest tool', () => {
  it.each([
    ['a misspelt deny', { deny: ['bahs'] }, /policy\.deny names "bahs".*did you mean "bash"\?/],
    ['a misspelt allow', { allow: ['raed'] }, /policy\.allow names "raed".*did you mean "read"\?/],
    [
      'another case in deny',
      { deny: ['Bash'] },
      /policy\.deny names "Bash".*did you mean "bash"\?/,
    ],
    [
      'another case in allow',
      { allow: ['READ'] },
      /policy\.allow names "READ".*did you mean "read"\?/,
    ],
    [
      'an unknown name among known ones',
      { allow: ['read', 'grep'] },
      /"grep", which is not a tool/,
    ],
    ['an empty name', { deny: [''] }, /policy\.deny names "", which is not a tool/],
    ['a padded name', { deny: [' bash'] }, /did you mean "bash"\?/],
  ])('%s', (_case, policy, message) => {
    const attempt = () => createAgent({ provider: provider(), tools, policy });
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(message);
    expect(attempt).toThrow(/its tools are bash, edit, read; correct the name, or remove it/);
  });

  it('says the agent has no tools when an allow list names one it does not have', () => {
    expect(() => createAgent({ provider: provider(), policy: { allow: ['bash'] } })).toThrow(
      /policy\.allow names "bash", which is not a tool of this agent: it has no tools/,
    );
  });

  it.each([
    ['no tools at all', [], ['bash']],
    ['a tool it was not given', ['read', 'edit'], ['bash']],
    ['several it was not given', ['read'], ['bash', 'write', 'search_web']],
  ])(
    'accepts a deny of a tool the agent does not have, since nothing is enabled by it: %s',
    (_label, names, deny) => {
      const agent = createAgent({
        provider: provider(),
        tools: names.map((name) => tool(name)),
        policy: { deny },
      });
      expect(agent.tools).toEqual([...names].sort());
    },
  );

  it.each([
    ['a number', { deny: [1] }, /policy\.deny must be an array of tool names/],
    ['null', { allow: [null] }, /policy\.allow must be an array of tool names/],
    ['a string instead of a list', { deny: 'bash' }, /policy\.deny must be an array/],
    ['an unknown field', { denny: ['bash'] }, /"denny", which is not a policy field/],
    ['a list instead of an object', ['bash'], /policy must be an object/],
  ])('refuses %s with a ConfigurationError', (_case, policy, message) => {
    expect(() => createAgent({ provider: provider(), tools, policy: policy as never })).toThrow(
      message,
    );
  });

  it('accepts the names of tools a tool gives its child runs', () => {
    const explore = tool('explore', { subagentTools: ['look'] });
    const agent = createAgent({
      provider: provider(),
      tools: [explore],
      policy: { deny: ['look'] },
    });
    expect(agent.tools).toEqual(['explore']);
  });
});

describe('the tools a valid policy offers', () => {
  it.each([
    ['no policy: every tool', undefined, ['bash', 'edit', 'read']],
    ['an empty allow list: none', { allow: [] }, []],
    ['an empty deny list: every tool', { deny: [] }, ['bash', 'edit', 'read']],
    ['an allow list: only those', { allow: ['read', 'edit'] }, ['edit', 'read']],
    ['a deny list: all but those', { deny: ['bash'] }, ['edit', 'read']],
    ['deny wins over allow', { allow: ['read', 'bash'], deny: ['bash'] }, ['read']],
    ['a repeated name counts once', { allow: ['read', 'read'], deny: ['bash', 'bash'] }, ['read']],
  ])('%s', async (_case, policy, offered) => {
    const scripted = provider();
    const agent = createAgent({ provider: scripted, tools, ...(policy ? { policy } : {}) });
    expect(agent.tools).toEqual(offered);
    await agent.run('hi');
    expect(scripted.requests[0]?.tools.map((t) => t.name).sort()).toEqual(offered);
  });

  it('refuses a call to a tool an empty allow list leaves out', async () => {
    const scripted = new ScriptedProvider({
      turns: [{ tool_calls: [{ name: 'bash', arguments: {} }] }, { text: 'ok' }],
    });
    const events: string[] = [];
    await createAgent({ provider: scripted, tools, policy: { allow: [] } }).run('go', {
      onEvent: (event) => {
        if (event.type === 'tool.end') events.push(`${event.call.name}:${event.status}`);
      },
    });
    expect(events).toEqual(['bash:denied']);
  });
});
