import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeSecrets } from './__fixtures__/fake-secrets.js';
import {
  ALPHA_PATH,
  ANSWER,
  PROMPT,
  readAllFiles,
  scriptedRun,
  tempStateDir,
  WRITE_CONTENT,
} from './__fixtures__/scripted-run.js';
import { capturesPayload } from './capture/payload-capture.js';
import { createSpanTracer, createTracer } from './create-tracer.js';
import { readTrace } from './recorder/trace-reader.js';

let state: Awaited<ReturnType<typeof tempStateDir>>;
beforeEach(async () => {
  state = await tempStateDir();
});
afterEach(async () => {
  await state.cleanup();
});

describe('metadata mode', () => {
  it('keeps nothing of the model request and response, so the tracer never assembles them', () => {
    expect(capturesPayload('metadata', 'llm_request')).toBe(false);
    expect(capturesPayload('metadata', 'llm_response')).toBe(false);
    expect(capturesPayload('metadata', 'tool_arguments')).toBe(true);
    expect(capturesPayload('replay', 'llm_request')).toBe(true);
  });

  it('writes neither the prompt, nor the answer, nor tool arguments, nor tool output', async () => {
    const tracer = createTracer({ stateDir: state.dir, mode: 'metadata' });
    const result = await scriptedRun(tracer, { stateDir: state.dir });
    const text = await readFile(result.tracePath as string, 'utf8');
    for (const marker of ['PROMPT-MARKER', 'ANSWER-MARKER', 'ARG-MARKER', 'WRITE-CONTENT-MARKER']) {
      expect(text).not.toContain(marker);
    }
    for (const content of [PROMPT, ANSWER, ALPHA_PATH, WRITE_CONTENT, 'alpha says hello']) {
      expect(text).not.toContain(content);
    }
    const tree = await readTrace(result.tracePath as string);
    expect(tree.capture_mode).toBe('metadata');
  });

  it('gives llm.call sizes and token counts but no request or response fingerprint', async () => {
    const tracer = createTracer({ stateDir: state.dir, mode: 'metadata' });
    const result = await scriptedRun(tracer, { stateDir: state.dir });
    const tree = await readTrace(result.tracePath as string);
    const llm = tree.root.children[2]?.children[0];
    expect(llm?.attributes).toMatchObject({ text_chars: ANSWER.length, tool_calls: 0 });
    expect(Object.keys(llm?.attributes ?? {}).filter((key) => key.startsWith('llm_'))).toEqual([]);
  });

  it('keeps only keyed hashes and sizes of a prompt that exports an API key', async () => {
    const tracer = createSpanTracer({ stateDir: state.dir, mode: 'metadata' });
    const prompt = `export OPENAI_API_KEY=${fakeSecrets.openai}`;
    const span = tracer.startRun('main', {}, { sessionKey: 'cli-000000000000-r13', runId: 'r13' });
    span.recordPayload('prompt', prompt);
    const location = await tracer.finishRun(span, 'ok');
    const tree = await readTrace(location?.tracePath as string);
    expect(tree.root.attributes).toMatchObject({ prompt_chars: prompt.length, prompt_keys: [] });
    expect(tree.root.attributes.prompt_hash).toMatch(/^[0-9a-f]{64}$/);
    for (const file of await readAllFiles(state.dir)) expect(file.text).not.toContain('sk-');
  });

  it('hashes with the install salt, so the same content gives the same hash across tracers', async () => {
    const hashOf = async (runId: string) => {
      const tracer = createSpanTracer({ stateDir: state.dir, mode: 'metadata' });
      const span = tracer.startRun('main', {}, { sessionKey: 'cli-000000000000-h', runId });
      span.recordPayload('tool_arguments', { command: 'ls' });
      const location = await tracer.finishRun(span, 'ok');
      return (await readTrace(location?.tracePath as string)).root.attributes.tool_arguments_hash;
    };
    const first = await hashOf('h1');
    expect(await hashOf('h2')).toBe(first);
    // A bare sha256 of the canonical JSON would be guessable; the keyed one is not that.
    const { createHash } = await import('node:crypto');
    expect(first).not.toBe(createHash('sha256').update('{"command":"ls"}').digest('hex'));
  });
});
