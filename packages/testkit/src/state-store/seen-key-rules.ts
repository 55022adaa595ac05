import { ConfigurationError } from '@tiny-claw/core';
import { expect, it } from 'vitest';
import type { ContractContext } from './contract.js';

const MINUTE = 60_000;

/**
 * The rules of `store.seen`.
 *
 * @example
 * describe('seen keys', () => seenKeyRules(context));
 */
export function seenKeyRules(context: ContractContext): void {
  it('answers true to the first caller of a key and false to a repeat', async () => {
    const { store } = context();
    expect(await store.seen.remember('event:e1', MINUTE)).toBe(true);
    expect(await store.seen.remember('event:e1', MINUTE)).toBe(false);
    expect(await store.seen.remember('message:m1', MINUTE)).toBe(true);
  });

  it('lets exactly one of many concurrent callers of one key win', async () => {
    const { store } = context();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => store.seen.remember('event:same', MINUTE)),
    );
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('answers true again once the ttl ran out, the expiry instant included', async () => {
    const { store, clock } = context();
    expect(await store.seen.remember('event:e1', MINUTE)).toBe(true);
    clock.advance(MINUTE - 1);
    expect(await store.seen.remember('event:e1', MINUTE)).toBe(false);
    clock.advance(1);
    expect(await store.seen.remember('event:e1', MINUTE)).toBe(true);
  });

  it('does not extend the first expiry with a repeat', async () => {
    const { store, clock } = context();
    await store.seen.remember('event:e1', MINUTE);
    clock.advance(MINUTE / 2);
    expect(await store.seen.remember('event:e1', 10 * MINUTE)).toBe(false);
    clock.advance(MINUTE / 2);
    expect(await store.seen.remember('event:e1', MINUTE)).toBe(true);
  });

  it('keeps each key to its own ttl', async () => {
    const { store, clock } = context();
    await store.seen.remember('short', MINUTE);
    await store.seen.remember('long', 10 * MINUTE);
    clock.advance(2 * MINUTE);
    expect(await store.seen.remember('short', MINUTE)).toBe(true);
    expect(await store.seen.remember('long', MINUTE)).toBe(false);
  });

  it('refuses an empty or over-long key and a ttl that is not a positive whole number', async () => {
    const { store } = context();
    await expect(store.seen.remember('', MINUTE)).rejects.toThrow(ConfigurationError);
    await expect(store.seen.remember('k'.repeat(301), MINUTE)).rejects.toThrow(ConfigurationError);
    for (const ttl of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(store.seen.remember('event:e1', ttl)).rejects.toThrow(ConfigurationError);
    }
    expect(await store.seen.remember('event:e1', MINUTE)).toBe(true);
  });
}
