import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { link, mkdir, readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  errorMessage,
  type Lease,
  type LeaseStore,
  type Logger,
  StateError,
} from '@tiny-claw/core';
import { checkStoreKey, checkTtlMs, STORE_KEY_MAX_CHARS } from '@tiny-claw/core/store';
import { isErrnoError } from '@tiny-claw/core/utils';
import { z } from 'zod';
import { QuarantinedFileError, readJsonFile } from '../files/index.js';

/** The directory of a state dir that holds the leases. */
export const LEASES_DIR = 'leases';

/** How often an acquire looks again after losing a race to another acquirer. */
const ACQUIRE_ATTEMPTS = 8;

const GENERATION_NAME = /^([1-9][0-9]{0,15})\.json$/;

/**
 * One generation of a lease: `leases/<sha256 of the key>/<generation>.json`. A file is created
 * whole (hard-linked from a private draft) and never changed.
 *
 * @example
 * leaseRecordSchema.parse({ schemaVersion: 1, key: 'chat:oc_1', holder: 'a', token: '…', expiresAt: 1767225630000 });
 */
export const leaseRecordSchema = z.object({
  schemaVersion: z.literal(1),
  key: z.string().min(1).max(STORE_KEY_MAX_CHARS),
  holder: z.string().min(1).max(STORE_KEY_MAX_CHARS),
  /** Which lease object holds it: renewals keep the token, a new acquire gets a new one. */
  token: z.string().min(1),
  /** When it runs out, ms since the epoch. */
  expiresAt: z.number().int().nonnegative(),
  /** Given up by its holder: free at once. */
  released: z.literal(true).optional(),
});

type LeaseRecord = z.infer<typeof leaseRecordSchema>;

/**
 * Leases as files, exclusive across the processes of one host (and any file system where
 * `link(2)` fails on an existing name). Each key has a directory of numbered generations; the
 * highest is the lease as it stands. Taking the lease, renewing it and releasing it all create the
 * next generation with `link(2)`, which fails when the name exists — so of two processes acting
 * on one generation (two acquirers of an expired lease, or the holder renewing while someone takes
 * the expired lease over) exactly one wins, and the other learns it. Older generations are removed
 * by whoever creates a newer one; a generation created from a stale listing is found below a newer
 * one and withdrawn. Nothing is ever overwritten, so a crash leaves a lease that simply expires.
 *
 * @example
 * const leases = new FileLeases('/home/me/.tiny-claw', { logger, clock: () => new Date() });
 * const lease = await leases.acquire('chat:oc_1', 'replica-a', 30_000);
 */
export class FileLeases implements LeaseStore {
  readonly dir: string;
  readonly #logger: Logger;
  readonly #clock: () => Date;

  constructor(stateDir: string, options: { logger: Logger; clock: () => Date }) {
    this.dir = join(stateDir, LEASES_DIR);
    this.#logger = options.logger;
    this.#clock = options.clock;
  }

  async acquire(key: string, holder: string, ttlMs: number): Promise<Lease | undefined> {
    checkStoreKey(key, 'lease key');
    checkStoreKey(holder, 'lease holder');
    checkTtlMs(ttlMs);
    const dir = join(this.dir, createHash('sha256').update(key).digest('hex').slice(0, 32));
    await mkdir(dir, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
      throw new StateError(`Could not create ${dir}: ${errorMessage(error)}`, { cause: error });
    });
    const token = randomUUID();
    for (let attempt = 0; attempt < ACQUIRE_ATTEMPTS; attempt += 1) {
      const top = (await generations(dir)).at(-1) ?? 0;
      if (top > 0) {
        const current = await this.#read(dir, top);
        if (current === undefined) continue; // removed or moved aside meanwhile: look again
        if (current.released !== true && current.expiresAt > this.#clock().getTime()) {
          return undefined;
        }
      }
      const expiresAt = this.#clock().getTime() + ttlMs;
      const record: LeaseRecord = { schemaVersion: 1, key, holder, token, expiresAt };
      if (await createNewest(dir, top + 1, record)) {
        return new FileLease({ dir, generation: top + 1, record, ttlMs, clock: this.#clock });
      }
    }
    return undefined;
  }

  async #read(dir: string, generation: number): Promise<LeaseRecord | undefined> {
    try {
      return await readJsonFile(join(dir, `${generation}.json`), leaseRecordSchema);
    } catch (error) {
      if (!(error instanceof QuarantinedFileError)) throw error;
      // Moved aside: the generation below it is the lease as it stands.
      this.#logger.warn(error.message);
      return undefined;
    }
  }
}

/** The lease one acquire got: it renews and releases by creating the next generation. */
class FileLease implements Lease {
  readonly key: string;
  readonly holder: string;
  readonly #dir: string;
  readonly #ttlMs: number;
  readonly #clock: () => Date;
  #generation: number;
  #record: LeaseRecord;
  #lost = false;

  constructor(held: {
    dir: string;
    generation: number;
    record: LeaseRecord;
    ttlMs: number;
    clock: () => Date;
  }) {
    this.#dir = held.dir;
    this.#generation = held.generation;
    this.#record = held.record;
    this.#ttlMs = held.ttlMs;
    this.#clock = held.clock;
    this.key = held.record.key;
    this.holder = held.record.holder;
  }

  get expiresAt(): Date {
    return new Date(this.#record.expiresAt);
  }

  async renew(ttlMs = this.#ttlMs): Promise<boolean> {
    checkTtlMs(ttlMs);
    const record = { ...this.#record, expiresAt: this.#clock().getTime() + ttlMs };
    if (!(await this.#next(record))) return false;
    this.#record = record;
    return true;
  }

  async release(): Promise<void> {
    await this.#next({ ...this.#record, expiresAt: this.#clock().getTime(), released: true });
    this.#lost = true;
  }

  /** Create the generation after ours while ours is the newest; false once the lease is lost. */
  async #next(record: LeaseRecord): Promise<boolean> {
    if (this.#lost) return false;
    const next = this.#generation + 1;
    if (
      !(await isNewest(this.#dir, this.#generation)) ||
      !(await createNewest(this.#dir, next, record))
    ) {
      this.#lost = true;
      return false;
    }
    this.#generation = next;
    return true;
  }
}

/**
 * Create generation `generation` of the lease in `dir` holding `record`, and keep it only if it is
 * the newest: false when the name exists (someone else acted first) or a newer generation does
 * (the number was free again only because older generations are removed). Older generations are
 * removed once it stands.
 */
async function createNewest(
  dir: string,
  generation: number,
  record: LeaseRecord,
): Promise<boolean> {
  const path = join(dir, `${generation}.json`);
  // Written whole under a private name, then linked into place: link(2) fails when the name
  // exists, and nobody ever reads a half-written generation.
  const draft = join(dir, `.${randomBytes(6).toString('hex')}.draft`);
  try {
    await writeFile(draft, `${JSON.stringify(leaseRecordSchema.parse(record))}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
    await link(draft, path);
  } catch (error) {
    if (isErrnoError(error, 'EEXIST')) return false;
    throw new StateError(`Could not write the lease ${path}: ${errorMessage(error)}`, {
      cause: error,
    });
  } finally {
    await unlink(draft).catch(() => {});
  }
  if (!(await isNewest(dir, generation))) {
    await unlink(path).catch(() => {});
    return false;
  }
  for (const older of await generations(dir).catch(() => [])) {
    if (older >= generation) break;
    await unlink(join(dir, `${older}.json`)).catch(() => {});
  }
  return true;
}

/** True when no generation above `generation` exists in `dir`. */
async function isNewest(dir: string, generation: number): Promise<boolean> {
  return ((await generations(dir)).at(-1) ?? 0) <= generation;
}

/** The generation numbers in `dir`, lowest first. */
async function generations(dir: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (isErrnoError(error, 'ENOENT')) return [];
    throw new StateError(`Could not list ${dir}: ${errorMessage(error)}`, { cause: error });
  }
  return names
    .flatMap((name) => {
      const number = GENERATION_NAME.exec(name)?.[1];
      return number === undefined ? [] : [Number(number)];
    })
    .sort((a, b) => a - b);
}
