// An agent in fifteen lines: the workspace tools, one tool of your own, one policy. Without an
// OPENAI_API_KEY the scripted provider plays the model, so this runs anywhere:
//   pnpm --filter @tiny-claw/example-embed start
import { createAgent, defineTool, type LLMProvider } from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { OpenAIProvider } from '@tiny-claw/providers-openai';
import { workspaceTools } from '@tiny-claw/tools';
import { z } from 'zod';

const apiKey = process.env.OPENAI_API_KEY;
const provider: LLMProvider = apiKey
  ? new OpenAIProvider({ apiKey, model: 'gpt-4.1-mini' })
  : new ScriptedProvider({
      turns: [
        { text: 'Let me add them.', tool_calls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
        { text: '2 + 3 = 5' },
        { tool_calls: [{ name: 'bash', arguments: { command: 'sed -i s/foo/bar/ *.ts' } }] },
        { text: 'bash is not available here, so nothing was renamed.' },
      ],
    });

const agent = createAgent({
  provider,
  tools: [
    ...workspaceTools({ workdir: process.cwd(), enabled: ['read', 'edit'] }),
    defineTool({
      name: 'add',
      description: 'Add two numbers',
      parameters: z.object({ a: z.number(), b: z.number() }),
      run: ({ a, b }) => String(a + b),
    }),
  ],
  policy: { deny: ['bash'] },
});
const result = await agent.run('what is 2 + 3?');
console.log(`${result.stopReason}: ${result.text}`);
for await (const event of agent.stream('rename foo to bar')) {
  if (event.type === 'tool.start')
    console.log(`→ ${event.call.name} ${JSON.stringify(event.call.arguments)}`);
  if (event.type === 'tool.end')
    console.log(`← ${event.status}: ${event.output.content.split('\n')[0]}`);
  if (event.type === 'run.finish') console.log(`${event.result.stopReason}: ${event.result.text}`);
}
