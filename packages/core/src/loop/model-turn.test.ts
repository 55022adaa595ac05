import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import type { CompactionReport } from '../context/compactor.js';
import type { LLMProvider, LLMUsage } from '../provider.js';
import { defineTool } from '../tool.js';

let workdir: string;
beforeEach(async () => {
  workdir = await mkdtemp(join(tmpdir(), 'tiny-claw-model-turn-'));
});
afterEach(() => rm(workdir, { recursive: true, force: true }));

// About 28,000 characters and 6,000 estimated tokens of English.
const note = 'The compactor shortens old tool results for one request only. '.repeat(450);

/** A tool whose small call brings back a long page. */
const pageTool = defineTool({
  name: 'page',
  description: 'returns a long page',
  parallelSafe: true,
  parameters: z.object({}),
  run: () => note,
});

/** Two page calls, then an answer; every response reports `usage` (or none). */
function provider(usage: LLMUsage | undefined): LLMProvider {
  let calls = 0;
  return {
    name: 'counting',
    complete: async () => {
      calls += 1;
      const message =
        calls <= 2
          ? {
              role: 'assistant' as const,
              content: '',
              toolCalls: [{ id: `p${calls}`, name: 'page', arguments: {} }],
            }
          : { role: 'assistant' as const, content: 'done' };
      return { message, provider: 'counting', ...(usage ? { usage } : {}) };
    },
  };
}

async function lastCompaction(usage: LLMUsage | undefined): Promise<CompactionReport | undefined> {
  const reports: Array<CompactionReport | undefined> = [];
  const agent = createAgent({
    provider: provider(usage),
    tools: [pageTool],
    workdir,
    // 60,000 characters, so 15,000 tokens: two pages fit both, until tokens count double.
    compaction: { maxChars: 60_000, retainLastMessages: 1 },
    onEvent: (event) => {
      if (event.type === 'model.start') reports.push(event.compaction);
    },
  });
  const result = await agent.run('take notes');
  expect(result.stopReason).toBe('final');
  return reports.at(-1);
}

describe('the model turn and the token estimate', () => {
  it('sends two pages whole when nothing says the estimate is low', async () => {
    expect(await lastCompaction(undefined)).toBeUndefined();
  });

  it('learns from reported input tokens that the model counts more, and compacts sooner', async () => {
    const report = await lastCompaction({
      inputTokens: 10_000_000,
      outputTokens: 5,
      totalTokens: 10_000_005,
    });
    expect(report).toMatchObject({ tokenScale: 2, changed: true, maskedToolResults: 1 });
    expect(report?.originalChars).toBeLessThan(60_000);
  });
});
