// Your own persona: `systemPrompt` replaces the built-in coding-agent prompt; `instructions`
// still adds to whichever prompt is in force.
import { createAgent } from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';

const provider = new ScriptedProvider({ turns: [{ text: '- Faster start-up' }] });
const agent = createAgent({
  provider,
  systemPrompt: 'You write release notes for end users: short bullet points, no jargon.',
  instructions: 'Answer in English.',
});
const result = await agent.run('Summarise: cold start went from 300 ms to 120 ms.');

const system = provider.requests[0]?.messages.filter((message) => message.role === 'system') ?? [];
console.log(`first system message: ${system[0]?.content}`);
console.log(
  `mentions the built-in persona: ${system.some((m) => m.content.includes('Tiny Claw'))}`,
);
console.log(`answer: ${result.text}`);
