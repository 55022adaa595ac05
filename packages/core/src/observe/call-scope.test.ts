import { describe, expect, it } from 'vitest';
import { currentModelCallScope, type ModelCallScope, withModelCallScope } from './call-scope.js';

const scope: ModelCallScope = {
  sessionKey: 'cli-000000000000-default',
  runId: 'run-1',
  mode: 'act',
  phase: 'act',
  step: 1,
  caller: 'main_loop',
};

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('model-call scope', () => {
  it('is undefined outside any scope', () => {
    expect(currentModelCallScope()).toBeUndefined();
  });

  it('is visible across awaits inside the scope and gone after it', async () => {
    const seen = await withModelCallScope(scope, async () => {
      await tick();
      return currentModelCallScope();
    });
    expect(seen).toEqual(scope);
    expect(currentModelCallScope()).toBeUndefined();
  });

  it('a nested scope replaces the outer one only for its own duration', async () => {
    const child: ModelCallScope = { ...scope, runId: 'child', mode: 'explore', caller: 'subagent' };
    await withModelCallScope(scope, async () => {
      const inner = await withModelCallScope(child, async () => {
        await tick();
        return currentModelCallScope()?.caller;
      });
      expect(inner).toBe('subagent');
      expect(currentModelCallScope()?.caller).toBe('main_loop');
    });
  });

  it('concurrent scopes do not see each other', async () => {
    const steps = await Promise.all(
      [1, 2, 3].map((step) =>
        withModelCallScope({ ...scope, step }, async () => {
          await tick();
          return currentModelCallScope()?.step;
        }),
      ),
    );
    expect(steps).toEqual([1, 2, 3]);
  });

  it('later changes to the caller object do not reach the stored scope', () => {
    const mutable = { ...scope };
    withModelCallScope(mutable, () => {
      mutable.step = 99;
      expect(currentModelCallScope()?.step).toBe(1);
      expect(Object.isFrozen(currentModelCallScope())).toBe(true);
    });
  });

  it('returns what the function returns, and its errors propagate', () => {
    expect(withModelCallScope(scope, () => 42)).toBe(42);
    expect(() =>
      withModelCallScope(scope, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
  });
});
