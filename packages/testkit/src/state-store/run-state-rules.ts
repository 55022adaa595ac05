import { ApprovalError, ConfigurationError } from '@tiny-claw/core';
import { expect, it } from 'vitest';
import type { ContractContext } from './contract.js';
import { checkpointOf, pendingApproval } from './records.js';

/**
 * The rules of `store.runStates`.
 *
 * @example
 * describe('run states', () => runStateRules(context));
 */
export function runStateRules(context: ContractContext): void {
  it('gives back a saved state as a copy, and nothing for an unknown id', async () => {
    const { runStates } = context().store;
    const checkpoint = checkpointOf(pendingApproval());
    await runStates.save(checkpoint);
    const read = await runStates.read(checkpoint.sessionKey, checkpoint.id);
    expect(read).toEqual(checkpoint);
    if (read) read.state.prompt = 'changed';
    expect((await runStates.read(checkpoint.sessionKey, checkpoint.id))?.state.prompt).toBe(
      'do the thing',
    );
    expect(await runStates.read(checkpoint.sessionKey, pendingApproval().checkpointId)).toBe(
      undefined,
    );
  });

  it('replaces a state saved again under the same id', async () => {
    const { runStates } = context().store;
    const checkpoint = checkpointOf(pendingApproval());
    await runStates.save(checkpoint);
    await runStates.save({ ...checkpoint, state: { ...checkpoint.state, step: 2 } });
    expect((await runStates.read(checkpoint.sessionKey, checkpoint.id))?.state.step).toBe(2);
  });

  it('keeps each session its own states', async () => {
    const { runStates } = context().store;
    const checkpoint = checkpointOf(pendingApproval());
    await runStates.save(checkpoint);
    expect(await runStates.read('cli-1a2b3c4d5e6f-other', checkpoint.id)).toBeUndefined();
  });

  it('deletes a state, and deleting one that is not there changes nothing', async () => {
    const { runStates } = context().store;
    const checkpoint = checkpointOf(pendingApproval());
    await runStates.save(checkpoint);
    await runStates.delete(checkpoint.sessionKey, checkpoint.id);
    expect(await runStates.read(checkpoint.sessionKey, checkpoint.id)).toBeUndefined();
    await runStates.delete(checkpoint.sessionKey, checkpoint.id);
  });

  it('refuses a malformed state instead of keeping it', async () => {
    const { runStates } = context().store;
    const checkpoint = checkpointOf(pendingApproval());
    await expect(runStates.save({ ...checkpoint, approvalId: '../x' })).rejects.toThrow();
    expect(await runStates.read(checkpoint.sessionKey, checkpoint.id)).toBeUndefined();
  });

  it('refuses ids and session keys that could escape their place', async () => {
    const { runStates } = context().store;
    const error = await runStates
      .read('cli-1a2b3c4d5e6f-default', 'a/b')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApprovalError);
    expect((error as Error).message).toContain('not a valid checkpoint id');
    await expect(runStates.read('../etc', pendingApproval().checkpointId)).rejects.toThrow(
      ConfigurationError,
    );
    await expect(runStates.delete('cli-1a2b3c4d5e6f-default', '../../x')).rejects.toThrow(
      ApprovalError,
    );
  });
}
