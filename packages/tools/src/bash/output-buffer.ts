/**
 * Default memory cap of one captured stream (stdout or stderr): 1 MiB.
 *
 * @example
 * new OutputBuffer(DEFAULT_OUTPUT_BUFFER_BYTES);
 */
export const DEFAULT_OUTPUT_BUFFER_BYTES = 1024 * 1024;

/**
 * What an {@link OutputBuffer} kept: the first bytes, the last bytes, and how many bytes in
 * between were dropped. When nothing was dropped, `tail` is empty and `head` is the whole stream.
 *
 * @example
 * const snap: OutputSnapshot = buffer.snapshot();
 * if (snap.omittedBytes > 0) console.log(`${snap.omittedBytes} bytes dropped`);
 */
export interface OutputSnapshot {
  head: Buffer;
  tail: Buffer;
  /** Bytes received but not kept (between `head` and `tail`). */
  omittedBytes: number;
  /** Bytes received in total. */
  totalBytes: number;
}

/**
 * Keeps at most `limitBytes` of a stream in memory, whatever its size: the first half verbatim
 * and the most recent half in a ring, counting the bytes dropped in between. A command that
 * prints gigabytes (`yes`) therefore costs a fixed amount of memory, and the model still sees how
 * the output started and how it ended (where errors usually are).
 *
 * @example
 * const out = new OutputBuffer(8);
 * out.push(Buffer.from('0123456789abcdef'));
 * const snap = out.snapshot(); // head '0123', tail 'cdef', omittedBytes 8
 */
export class OutputBuffer {
  readonly limitBytes: number;
  private readonly headLimit: number;
  private readonly tailLimit: number;
  /** Grown geometrically up to headLimit: most commands print a few hundred bytes. */
  private head: Buffer = Buffer.alloc(0);
  private headLength = 0;
  /** Allocated on the first byte past the head, so small outputs cost only the head. */
  private ring: Buffer | undefined;
  /** Next write position in the ring. */
  private ringPos = 0;
  /** Bytes currently held in the ring (≤ tailLimit). */
  private ringLength = 0;
  private total = 0;

  constructor(limitBytes: number = DEFAULT_OUTPUT_BUFFER_BYTES) {
    if (!Number.isInteger(limitBytes) || limitBytes < 2) {
      throw new RangeError(`OutputBuffer limit must be an integer ≥ 2, got ${limitBytes}`);
    }
    this.limitBytes = limitBytes;
    this.headLimit = Math.ceil(limitBytes / 2);
    this.tailLimit = limitBytes - this.headLimit;
  }

  /** Bytes received so far. */
  get totalBytes(): number {
    return this.total;
  }

  /** True once more bytes were received than are kept. */
  get truncated(): boolean {
    return this.total > this.headLength + this.ringLength;
  }

  /**
   * Append a chunk; only `limitBytes` in total are ever retained.
   *
   * @example
   * child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
   */
  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    let data = chunk;
    if (this.headLength < this.headLimit) {
      const take = Math.min(this.headLimit - this.headLength, data.length);
      this.ensureHeadCapacity(this.headLength + take);
      // Copy, never keep a view: the caller may reuse its chunk, and a view pins its allocation.
      this.head.set(data.subarray(0, take), this.headLength);
      this.headLength += take;
      data = data.subarray(take);
    }
    if (data.length === 0) return;
    this.pushRing(data);
  }

  private ensureHeadCapacity(needed: number): void {
    if (needed <= this.head.length) return;
    const size = Math.min(this.headLimit, Math.max(needed, this.head.length * 2, 4096));
    const grown = Buffer.alloc(size);
    grown.set(this.head.subarray(0, this.headLength));
    this.head = grown;
  }

  private pushRing(data: Uint8Array): void {
    if (this.tailLimit === 0) return;
    if (!this.ring) this.ring = Buffer.alloc(this.tailLimit);
    const ring = this.ring;
    // Only the last tailLimit bytes of a huge chunk can survive.
    const src = data.length > this.tailLimit ? data.subarray(data.length - this.tailLimit) : data;
    const first = Math.min(src.length, this.tailLimit - this.ringPos);
    ring.set(src.subarray(0, first), this.ringPos);
    if (first < src.length) ring.set(src.subarray(first), 0);
    this.ringPos = (this.ringPos + src.length) % this.tailLimit;
    this.ringLength = Math.min(this.tailLimit, this.ringLength + src.length);
  }

  /**
   * A copy of what is kept. When the stream fit in the head and the ring has not wrapped, the
   * whole stream is returned in `head` so callers can decode it in one piece.
   *
   * @example
   * const { head, tail, omittedBytes } = out.snapshot();
   */
  snapshot(): OutputSnapshot {
    const head = Buffer.from(this.head.subarray(0, this.headLength));
    let tail: Buffer;
    if (!this.ring || this.ringLength === 0) {
      tail = Buffer.alloc(0);
    } else if (this.ringLength < this.tailLimit) {
      tail = Buffer.from(this.ring.subarray(0, this.ringLength));
    } else {
      tail = Buffer.concat([this.ring.subarray(this.ringPos), this.ring.subarray(0, this.ringPos)]);
    }
    const omittedBytes = this.total - head.length - tail.length;
    if (omittedBytes === 0 && tail.length > 0) {
      return {
        head: Buffer.concat([head, tail]),
        tail: Buffer.alloc(0),
        omittedBytes,
        totalBytes: this.total,
      };
    }
    return { head, tail, omittedBytes, totalBytes: this.total };
  }
}
