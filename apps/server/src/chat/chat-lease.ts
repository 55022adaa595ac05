import type { Lease, LeaseStore } from '@tiny-claw/core';

/**
 * How a chat's work is kept to one replica at a time: the lease `chat:<chat id>` in the state
 * store, held by this replica while the work runs.
 *
 * @example
 * const lease: ChatLeaseOptions = { leases: app.agent.store.leases, holder: replicaId(), ttlMs: 30_000 };
 */
export interface ChatLeaseOptions {
  leases: LeaseStore;
  /** This replica, as the lease's holder. */
  holder: string;
  /** How long the lease lasts unless renewed: another replica takes a crashed one's chat after it. */
  ttlMs: number;
  /** How often a held lease is renewed (default: a third of `ttlMs`). */
  renewMs?: number;
  /** How often a chat whose lease another replica holds is tried again (default: a tenth of `ttlMs`, from 100 ms to 1 s). */
  pollMs?: number;
  /** Told what happened to a lease: waiting for another holder, lost while running, or a store failure. */
  onEvent?: (event: ChatLeaseEvent) => void;
}

/**
 * Something worth a log line about a chat's lease.
 *
 * @example
 * const event: ChatLeaseEvent = { kind: 'waiting', chatId: 'oc_1' };
 */
export type ChatLeaseEvent =
  | { kind: 'waiting'; chatId: string }
  | { kind: 'lost'; chatId: string }
  | { kind: 'error'; chatId: string; error: unknown };

/** The lease key of one chat. */
export function chatLeaseKey(chatId: string): string {
  return `chat:${chatId}`;
}

/**
 * Take the chat's lease, trying again every `pollMs` while another holder has it, until it is
 * taken (resolves to it) or `cancelled` settles first (resolves to undefined). `onBlocked` is
 * called after each try that found the lease held by someone else.
 */
export async function takeChatLease(
  options: ChatLeaseOptions,
  chatId: string,
  cancelled: Promise<void>,
  onBlocked: () => void = () => {},
): Promise<Lease | undefined> {
  const key = chatLeaseKey(chatId);
  const pollMs = options.pollMs ?? Math.min(1000, Math.max(100, Math.round(options.ttlMs / 10)));
  let stop = false;
  void cancelled.then(() => {
    stop = true;
  });
  let said = false;
  while (!stop) {
    try {
      const lease = await options.leases.acquire(key, options.holder, options.ttlMs);
      if (lease) {
        if (!stop) return lease;
        await lease.release().catch(() => {});
        return undefined;
      }
      if (!said) options.onEvent?.({ kind: 'waiting', chatId });
      said = true;
      onBlocked();
    } catch (error) {
      options.onEvent?.({ kind: 'error', chatId, error });
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      cancelled,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, pollMs);
      }),
    ]);
    clearTimeout(timer);
  }
  return undefined;
}

/**
 * Keep `lease` while `work` runs (renewed every `renewMs`), and release it when the work is done,
 * however it ends.
 */
export async function holdingChatLease(
  options: ChatLeaseOptions,
  lease: Lease,
  chatId: string,
  work: () => Promise<void>,
): Promise<void> {
  const renewMs = options.renewMs ?? Math.max(1, Math.floor(options.ttlMs / 3));
  let lost = false;
  const timer = setInterval(() => {
    lease.renew().then(
      (kept) => {
        if (!kept && !lost) {
          lost = true;
          options.onEvent?.({ kind: 'lost', chatId });
        }
      },
      (error: unknown) => options.onEvent?.({ kind: 'error', chatId, error }),
    );
  }, renewMs);
  try {
    await work();
  } finally {
    clearInterval(timer);
    await lease.release().catch((error: unknown) => {
      options.onEvent?.({ kind: 'error', chatId, error });
    });
  }
}
