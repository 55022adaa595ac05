import { ConfigurationError } from '@tiny-claw/core';
import { expect, it } from 'vitest';
import type { ContractContext } from './contract.js';

const TTL = 30_000;

/**
 * The rules of `store.leases`.
 *
 * @example
 * describe('leases', () => leaseRules(context));
 */
export function leaseRules(context: ContractContext): void {
  it('has one holder at a time: nobody else gets the lease while it is held, the holder neither', async () => {
    const { store, clock } = context();
    const lease = await store.leases.acquire('chat:oc_1', 'a', TTL);
    expect(lease).toMatchObject({ key: 'chat:oc_1', holder: 'a' });
    expect(lease?.expiresAt.getTime()).toBe(clock.now().getTime() + TTL);
    expect(await store.leases.acquire('chat:oc_1', 'b', TTL)).toBeUndefined();
    expect(await store.leases.acquire('chat:oc_1', 'a', TTL)).toBeUndefined();
    expect(await store.leases.acquire('chat:oc_2', 'b', TTL)).toBeDefined();
  });

  it('gives the lease to exactly one of many concurrent acquirers', async () => {
    const { store } = context();
    const leases = await Promise.all(
      Array.from({ length: 12 }, (_, i) => store.leases.acquire('chat:oc_1', `h${i}`, TTL)),
    );
    expect(leases.filter((lease) => lease !== undefined)).toHaveLength(1);
  });

  it('is free again once released, and a released lease renews no more', async () => {
    const { store } = context();
    const lease = await store.leases.acquire('chat:oc_1', 'a', TTL);
    await lease?.release();
    const next = await store.leases.acquire('chat:oc_1', 'b', TTL);
    expect(next?.holder).toBe('b');
    expect(await lease?.renew()).toBe(false);
    await lease?.release();
    expect(await store.leases.acquire('chat:oc_1', 'c', TTL)).toBeUndefined();
  });

  it('renews to a new expiry from now, which keeps the lease past the first one', async () => {
    const { store, clock } = context();
    const lease = await store.leases.acquire('chat:oc_1', 'a', TTL);
    clock.advance(TTL - 1000);
    expect(await lease?.renew()).toBe(true);
    expect(lease?.expiresAt.getTime()).toBe(clock.now().getTime() + TTL);
    clock.advance(2000);
    expect(await store.leases.acquire('chat:oc_1', 'b', TTL)).toBeUndefined();
    expect(await lease?.renew(5000)).toBe(true);
    expect(lease?.expiresAt.getTime()).toBe(clock.now().getTime() + 5000);
  });

  it('is taken over once expired, the expiry instant included; the old holder then loses it', async () => {
    const { store, clock } = context();
    const old = await store.leases.acquire('chat:oc_1', 'a', TTL);
    clock.advance(TTL - 1);
    expect(await store.leases.acquire('chat:oc_1', 'b', TTL)).toBeUndefined();
    clock.advance(1);
    const taken = await store.leases.acquire('chat:oc_1', 'b', TTL);
    expect(taken?.holder).toBe('b');
    expect(await old?.renew()).toBe(false);
    await old?.release();
    expect(await store.leases.acquire('chat:oc_1', 'c', TTL)).toBeUndefined();
    expect(await taken?.renew()).toBe(true);
  });

  it('can still be renewed after it expired, as long as nobody took it over', async () => {
    const { store, clock } = context();
    const lease = await store.leases.acquire('chat:oc_1', 'a', TTL);
    clock.advance(TTL + 1000);
    expect(await lease?.renew()).toBe(true);
    expect(await store.leases.acquire('chat:oc_1', 'b', TTL)).toBeUndefined();
  });

  it('refuses an empty key or holder and a ttl that is not a positive whole number', async () => {
    const { store } = context();
    await expect(store.leases.acquire('', 'a', TTL)).rejects.toThrow(ConfigurationError);
    await expect(store.leases.acquire('chat:oc_1', '', TTL)).rejects.toThrow(ConfigurationError);
    await expect(store.leases.acquire('chat:oc_1', 'a', 0)).rejects.toThrow(ConfigurationError);
    const lease = await store.leases.acquire('chat:oc_1', 'a', TTL);
    await expect(lease?.renew(-5)).rejects.toThrow(ConfigurationError);
  });
}
