import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors.js';
import {
  blockedCallOutput,
  createFailureTracker,
  failureKey,
  loopBreakerMessage,
} from './loop-breaker.js';

describe('failureKey', () => {
  it('sorts argument keys at every depth and keeps array order', () => {
    const key = failureKey({
      id: '1',
      name: 't',
      arguments: { b: 1, a: { d: [2, { z: 1, y: 0 }], c: 3 } },
    });
    expect(key).toBe('t:{"a":{"c":3,"d":[2,{"y":0,"z":1}]},"b":1}');
  });

  it('is the same for arguments in a different key order', () => {
    const a = failureKey({ id: '1', name: 'read', arguments: { path: 'a', offset: 1 } });
    const b = failureKey({ id: '2', name: 'read', arguments: { offset: 1, path: 'a' } });
    expect(a).toBe('read:{"offset":1,"path":"a"}');
    expect(b).toBe(a);
  });

  it('tells two different undecodable payloads apart', () => {
    const a = failureKey({ id: '1', name: 'read', arguments: {}, argumentsError: 'bad {' });
    const b = failureKey({ id: '2', name: 'read', arguments: {}, argumentsError: 'bad [' });
    expect(a).not.toBe(b);
  });
});

describe('createFailureTracker', () => {
  it('blocks from the third failure and forgets a key on success', () => {
    const tracker = createFailureTracker();
    expect(tracker.shouldBlock('k')).toBe(false);
    expect(tracker.recordFailure('k')).toBe(1);
    expect(tracker.shouldBlock('k')).toBe(false);
    expect(tracker.recordFailure('k')).toBe(2);
    expect(tracker.shouldBlock('k')).toBe(true);
    expect(tracker.shouldBlock('other')).toBe(false);
    tracker.recordSuccess('k');
    expect(tracker.count('k')).toBe(0);
    expect(tracker.shouldBlock('k')).toBe(false);
  });

  it('refuses a block attempt below 2', () => {
    expect(() => createFailureTracker({ blockAttempt: 1 })).toThrow(ConfigurationError);
    expect(() => createFailureTracker({ blockAttempt: 2.5 })).toThrow(/at least 2/);
  });
});

describe('blockedCallOutput and loopBreakerMessage', () => {
  it('describes the blocked call once, as a repeat that must not be retried', () => {
    const output = blockedCallOutput({ id: '1', name: 'bash', arguments: { command: 'x' } }, 3);
    expect(output).toMatchObject({
      isError: true,
      failure: {
        kind: 'execution_error',
        code: 'repeat_call_blocked',
        retryable: false,
        attempt: 3,
      },
    });
    expect(output.metadata).toBeUndefined();
    expect(output.content).toContain('already failed 2 times in a row, so it was not executed');
    expect(output.content).toContain('Repeat warning:');
  });

  it('tells the model to stop, change strategy, or ask for human help', () => {
    const message = loopBreakerMessage('edit', 3);
    expect(message.role).toBe('user');
    expect(message.content).toContain(
      "You seem to be stuck in a loop: you called the 'edit' tool 3 times in a row with the same arguments and it failed every time.",
    );
    expect(message.content).toContain('1. Stop guessing parameters.');
    expect(message.content).toContain('2. Change your strategy completely');
    expect(message.content).toContain('3. If the tools cannot solve it, end the task');
    expect(message.metadata).toBeUndefined();
  });
});
