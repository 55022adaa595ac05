import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { TinyClawError } from '../errors.js';
import { createMemoryStore } from '../store/memory-state-store.js';
import type { StateStore } from '../store/state-store.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';
import { createAgent } from './create-agent.js';
import { assertPromptSize, MAX_PROMPT_BYTES, PromptTooLargeError } from './prompt-limit.js';

/** An agent whose store notes every session it records and every memory line it adds. */
function agentWithStore() {
  const provider = new ScriptedProvider({ turns: [{ text: 'ok' }, { text: 'ok' }] });
  const stored: string[] = [];
  const base = createMemoryStore();
  const store: StateStore = {
    ...base,
    saveSession: async (session) => void stored.push(`session ${session.key}`),
    memory: (session) => ({
      append: async (entries) => void stored.push(...entries.map((entry) => entry.key)),
      readRecent: (limit) => base.memory(session).readRecent(limit),
    }),
  };
  const agent = createAgent({ provider, workdir: tmpdir(), store });
  return { agent, provider, stored };
}

describe('a prompt over 1 MiB is refused before anything is sent or stored', () => {
  it('run rejects with a typed input error, the provider is never called and nothing is stored', async () => {
    const { agent, provider, stored } = agentWithStore();
    const error = await agent.run('x'.repeat(MAX_PROMPT_BYTES + 1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PromptTooLargeError);
    expect(TinyClawError.isInstance(error) && error.code).toBe('input');
    expect((error as PromptTooLargeError).bytes).toBe(MAX_PROMPT_BYTES + 1);
    expect((error as Error).message).toMatch(
      /^the prompt is 1\.0 MiB \(1,048,577 bytes of UTF-8\), over the 1 MiB limit; nothing was sent or stored\. Shorten it, or save the material as a file in the workdir/,
    );
    expect(provider.requests).toHaveLength(0);
    expect(stored).toEqual([]);
  });

  it('counts UTF-8 bytes, not characters', async () => {
    // 400,000 characters of three bytes each: 1.14 MiB.
    expect(() => assertPromptSize('名'.repeat(400_000))).toThrow(PromptTooLargeError);
    expect(() => assertPromptSize('名'.repeat(349_525))).not.toThrow();
    expect(() => assertPromptSize('x'.repeat(MAX_PROMPT_BYTES))).not.toThrow();
  });

  it('stream throws the same error when iterated and yields no event', async () => {
    const { agent, provider } = agentWithStore();
    const seen: string[] = [];
    const iterate = async () => {
      for await (const event of agent.stream('y'.repeat(MAX_PROMPT_BYTES + 10)))
        seen.push(event.type);
    };
    await expect(iterate()).rejects.toBeInstanceOf(PromptTooLargeError);
    expect(seen).toEqual([]);
    expect(provider.requests).toHaveLength(0);
  });

  it('a prompt at the limit runs', async () => {
    const { agent, provider } = agentWithStore();
    const result = await agent.run('z'.repeat(MAX_PROMPT_BYTES));
    expect(result.stopReason).toBe('final');
    expect(provider.requests).toHaveLength(1);
  });
});
