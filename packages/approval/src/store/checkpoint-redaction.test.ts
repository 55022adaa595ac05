import { msg, type RunState } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { bashCall, cliSessionOf, pausedState } from './__fixtures__/records.js';
import { redactCheckpointState } from './checkpoint-redaction.js';

const KEY = 'sk-proj-Zq8vN3xR5tW2yB7mK4pL9sD1fG6hJ0cA';
const session = cliSessionOf('/repo');

/** A run that read a secret, said it aloud, and then paused on a call that carries it. */
function stateWithSecrets(): RunState {
  const read = { id: 'call_1', name: 'read', arguments: { path: 'config.js' } };
  const echo = bashCall(`echo ${KEY}`, 'call_2');
  const waiting = {
    id: 'call_3',
    name: 'write',
    arguments: { path: '.env', content: `KEY=${KEY}\n` },
  };
  const after = bashCall('ls', 'call_4');
  const state = pausedState(session, [waiting, after]);
  state.prompt = `use the key ${KEY} for the client`;
  state.messages = [
    msg.system('You are tiny-claw.'),
    msg.user(`use the key ${KEY} for the client`),
    msg.assistant('reading the config', [read]),
    msg.tool(read, `export const apiKey = '${KEY}';`, { metadata: { path: 'config.js' } }),
    msg.assistant(`found ${KEY}`, [echo]),
    msg.tool(echo, `${KEY}\n`, { metadata: { command: `echo ${KEY}` } }),
    msg.assistant('writing it', [waiting, after]),
  ];
  state.batch = {
    step: 3,
    calls: [
      { call: waiting, index: 0, status: 'pending' },
      { call: after, index: 1, status: 'pending' },
    ],
  };
  state.lastText = `found ${KEY}`;
  state.failures = { [`bash:{"command":"echo ${KEY}"}`]: 1 };
  return state;
}

describe('the run state a checkpoint keeps', () => {
  it('holds no raw secret from tool results, the model text or its earlier calls', () => {
    const redacted = redactCheckpointState(stateWithSecrets());
    const [, , , readResult, said, echoResult] = redacted.messages;
    expect(readResult?.content).not.toContain(KEY);
    expect(readResult?.content).toContain('[REDACTED:openai-api-key]');
    expect(echoResult?.content).not.toContain(KEY);
    expect(JSON.stringify(echoResult?.metadata)).not.toContain(KEY);
    expect(said?.content).toBe('found [REDACTED:openai-api-key]');
    expect(JSON.stringify(said?.toolCalls)).not.toContain(KEY);
    expect(redacted.lastText).not.toContain(KEY);
    expect(Object.keys(redacted.failures).join()).not.toContain(KEY);
    expect(Object.values(redacted.failures)).toEqual([1]);
  });

  it('tells the model a result was redacted, so it reads the source again for a value', () => {
    const redacted = redactCheckpointState(stateWithSecrets());
    expect(redacted.messages[3]?.content).toMatch(
      /^\[Secrets in this result were redacted when the run paused for approval\. Read the source again/,
    );
    const clean = redactCheckpointState(pausedState(session, [bashCall('ls')]));
    expect(clean).toEqual(pausedState(session, [bashCall('ls')]));
  });

  it('keeps what the resumed run needs verbatim: the paused turn’s calls, the prompt and the system messages', () => {
    const state = stateWithSecrets();
    const redacted = redactCheckpointState(state);
    expect(redacted.batch?.calls).toEqual(state.batch?.calls);
    expect(redacted.messages[6]?.toolCalls).toEqual(state.batch?.calls.map((entry) => entry.call));
    expect(redacted.prompt).toBe(state.prompt);
    expect(redacted.messages[0]).toEqual(state.messages[0]);
    expect(redacted.messages[1]).toEqual(state.messages[1]);
  });

  it('redacts the results of the paused turn’s calls that already ran', () => {
    const state = stateWithSecrets();
    const first = bashCall('cat .env', 'call_0');
    state.batch = {
      step: 3,
      calls: [
        {
          call: first,
          index: 0,
          status: 'executed',
          observation: msg.tool(first, `OPENAI_API_KEY=${KEY}\n`),
        },
        ...(state.batch?.calls ?? []).map((entry) => ({ ...entry, index: entry.index + 1 })),
      ],
    };
    const redacted = redactCheckpointState(state);
    expect(JSON.stringify(redacted.batch?.calls[0]?.observation)).not.toContain(KEY);
    expect(redacted.batch?.calls[0]?.call).toEqual(first);
    expect(redacted.batch?.calls.map((entry) => entry.status)).toEqual([
      'executed',
      'pending',
      'pending',
    ]);
  });

  it('does not change the state it is given', () => {
    const state = stateWithSecrets();
    const before = structuredClone(state);
    redactCheckpointState(state);
    expect(state).toEqual(before);
  });
});
