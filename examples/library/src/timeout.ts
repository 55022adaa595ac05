// A run with a deadline: pass `AbortSignal.timeout(ms)` and the run ends `cancelled` when it
// passes, whatever it is doing — here a tool that would take a minute stops after a fifth of a
// second, and the agent's answer says so.
import { createAgent, defineTool } from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { z } from 'zod';

const slowReport = defineTool({
  name: 'slow_report',
  description: 'Build the weekly report (takes a while)',
  parameters: z.object({}),
  run: (_input, ctx) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve('report ready'), 60_000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(ctx.signal.reason);
      });
    }),
});

const agent = createAgent({
  provider: new ScriptedProvider({
    turns: [{ tool_calls: [{ name: 'slow_report', arguments: {} }] }, { text: 'Here it is.' }],
  }),
  tools: [slowReport],
});

const started = Date.now();
const result = await agent.run('build the weekly report', { signal: AbortSignal.timeout(200) });
console.log(`stopReason: ${result.stopReason}`);
console.log(`stopped within 10 s: ${Date.now() - started < 10_000}`);
