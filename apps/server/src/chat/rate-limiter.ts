/** Sends per second to one chat: under Feishu's 5 per second per chat, which all bots share. */
export const CHAT_SENDS_PER_SECOND = 4;

/** Options of {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** Tokens added per second (and the burst size). */
  perSecond?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
  /** Callers waiting for this bucket, served in order. */
  queue: Promise<void>;
}

/**
 * A token bucket per key (a chat): `take(key)` resolves when a send to that chat may go, so one
 * chat never gets more than `perSecond` sends a second while other chats are not slowed.
 *
 * @example
 * const limiter = new RateLimiter();
 * await limiter.take('oc_team');
 * await api.send(…);
 */
export class RateLimiter {
  readonly #perSecond: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: RateLimiterOptions = {}) {
    this.#perSecond = options.perSecond ?? CHAT_SENDS_PER_SECOND;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Wait for a token of `key`'s bucket and use it. */
  take(key: string): Promise<void> {
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.#perSecond, updatedAt: this.#now(), queue: Promise.resolve() };
      this.#buckets.set(key, bucket);
    }
    const current = bucket;
    const turn = current.queue.then(() => this.#acquire(current));
    current.queue = turn;
    return turn.finally(() => {
      // A full, idle bucket is the same as none: forget it so the map does not grow with chats.
      if (current.queue === turn && this.#refill(current) >= this.#perSecond)
        this.#buckets.delete(key);
    });
  }

  async #acquire(bucket: Bucket): Promise<void> {
    for (;;) {
      const tokens = this.#refill(bucket);
      if (tokens >= 1) {
        bucket.tokens = tokens - 1;
        return;
      }
      await this.#sleep(Math.ceil(((1 - tokens) / this.#perSecond) * 1000));
    }
  }

  #refill(bucket: Bucket): number {
    const now = this.#now();
    const elapsed = Math.max(0, now - bucket.updatedAt) / 1000;
    bucket.tokens = Math.min(this.#perSecond, bucket.tokens + elapsed * this.#perSecond);
    bucket.updatedAt = now;
    return bucket.tokens;
  }
}
