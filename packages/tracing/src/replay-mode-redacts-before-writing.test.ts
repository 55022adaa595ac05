import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeSecrets, pemBodyLines } from './__fixtures__/fake-secrets.js';
import {
  ALPHA_PATH,
  BETA_PATH,
  readAllFiles,
  scriptedRun,
  tempStateDir,
} from './__fixtures__/scripted-run.js';
import { createTracer } from './create-tracer.js';
import { readTrace } from './recorder/trace-reader.js';
import type { TraceSpan } from './trace-schema.js';

let state: Awaited<ReturnType<typeof tempStateDir>>;
beforeEach(async () => {
  state = await tempStateDir();
});
afterEach(async () => {
  await state.cleanup();
});

const leakedOutput = [
  `OPENAI_API_KEY=${fakeSecrets.openai}`,
  `token: ${fakeSecrets.github}`,
  `aws_access_key_id = ${fakeSecrets.awsAccessKeyId}`,
  fakeSecrets.pem,
  'the rest of the file is harmless',
].join('\n');

describe('replay mode', () => {
  it('stores a tool output with an sk-, a ghp_, an AKIA key and a PEM block with each redacted', async () => {
    const tracer = createTracer({ stateDir: state.dir, mode: 'replay', maxPayloadChars: 4000 });
    const result = await scriptedRun(tracer, {
      stateDir: state.dir,
      files: { [ALPHA_PATH]: leakedOutput, [BETA_PATH]: 'beta' },
    });
    const tree = await readTrace(result.tracePath as string);
    const read = tree.root.children[0]?.children[1] as TraceSpan;
    const observation = String(read.attributes.tool_observation);
    expect(observation).toContain('OPENAI_API_KEY=[REDACTED:openai-api-key:');
    expect(observation).toContain('token: [REDACTED:github-token:');
    expect(observation).toContain('aws_access_key_id = [REDACTED:aws-access-key-id:');
    expect(observation).toContain('[REDACTED:private-key:');
    expect(observation).toContain('the rest of the file is harmless');
    // Replay keeps what is not secret: the arguments are there in full.
    expect(read.attributes.tool_arguments).toEqual({ path: ALPHA_PATH });
    // The next model call saw the same output; its captured request is redacted alike.
    const nextRequest = JSON.stringify(tree.root.children[1]?.children[0]?.attributes.llm_request);
    expect(nextRequest).toContain('[REDACTED:github-token:');
    expect(tree.root.children[0]?.children[0]?.attributes.llm_response).toMatchObject({
      toolCalls: [{ name: 'read' }, { name: 'read' }],
    });

    const secrets = [
      fakeSecrets.openai,
      fakeSecrets.github,
      fakeSecrets.awsAccessKeyId,
      ...pemBodyLines,
      'BEGIN RSA PRIVATE',
    ];
    const files = await readAllFiles(state.dir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      for (const secret of secrets) expect(file.text, file.path).not.toContain(secret);
    }
  });

  it('truncates each payload string to maxPayloadChars with the original marker', async () => {
    const tracer = createTracer({ stateDir: state.dir, mode: 'replay', maxPayloadChars: 100 });
    const result = await scriptedRun(tracer, {
      stateDir: state.dir,
      files: { [ALPHA_PATH]: 'x'.repeat(5000), [BETA_PATH]: 'beta' },
    });
    const tree = await readTrace(result.tracePath as string);
    const observation = String(tree.root.children[0]?.children[1]?.attributes.tool_observation);
    expect(observation).toHaveLength(100);
    expect(observation.endsWith('...[truncated 5000 chars]...')).toBe(true);
    expect(tree.root.children[0]?.children[1]?.attributes.tool_observation_chars).toBe(5000);
  });

  it('redacts a secret that straddles the truncation point instead of keeping its prefix', async () => {
    const tracer = createTracer({ stateDir: state.dir, mode: 'replay', maxPayloadChars: 120 });
    const text = `${'y'.repeat(60)} ${fakeSecrets.anthropic}`;
    const result = await scriptedRun(tracer, {
      stateDir: state.dir,
      files: { [ALPHA_PATH]: text, [BETA_PATH]: 'beta' },
    });
    for (const file of await readAllFiles(state.dir)) {
      expect(file.text).not.toContain(fakeSecrets.anthropic.slice(0, 20));
    }
    expect(result.stopReason).toBe('final');
  });
});
