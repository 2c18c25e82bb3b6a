/**
 * numpy-compatible random numbers: `np.random.default_rng(seed)`, i.e. SeedSequence → PCG64,
 * reproduced bit for bit so that Sem2's splits and the bootstrap's resamples are the authors'.
 *
 * Draws come from pcg64.ts in blocks (WebAssembly, or an exact plain-number fallback), so no
 * BigInt is allocated per draw: the bootstrap alone draws 40 million numbers. BigInt appears
 * only at the edges: seeding, `next64()`'s return value and the `state` accessor.
 */

import { bigToWords, lemire32Wasm, pcg64Fill, pcg64StepBig, wordsToBig, type Lemire32Kernel } from './pcg64';
import { seedSequenceState, seedWords } from './seed-sequence';

export { seedSequenceState, seedWords };

const MASK32 = 0xffffffff;
const TWO32 = 4294967296;
const INV_TWO32 = 1 / TWO32;

/** Draws generated per kernel call: enough to amortise the call, few enough for short streams. */
const POOL = 1024;
/** From this many bounded integers on, `fillIntegers` hands the whole loop to WebAssembly. */
const BULK_MIN = 64;
const MASK128 = (1n << 128n) - 1n;

/**
 * numpy's `Generator` over PCG64. Only the methods the Sem-ECE numbers need, each drawing from
 * the stream exactly as numpy does (including the 32-bit buffer that `permutation` and
 * `integers` share).
 *
 * 64-bit outputs are generated ahead in blocks and consumed in order, so the stream is numpy's
 * whatever mix of calls consumes it; only `state` has to rewind to the last consumed draw.
 */
export class Generator {
  /** State then increment as little-endian uint32 words, positioned after the last pooled draw. */
  private readonly words = new Uint32Array(8);
  /** `words` before the current pool was generated (for `state`). */
  private readonly poolStart = new Uint32Array(8);
  /** Pooled outputs as (low, high) uint32 pairs. */
  private readonly pool = new Uint32Array(2 * POOL);
  private next = POOL;
  private outHi = 0;
  private outLo = 0;
  private hasUint32 = false;
  private uinteger = 0;
  /** [hasUint32, uinteger] for the bulk kernel. */
  private readonly half = new Uint32Array(2);

  constructor(seed: number | bigint = 0) {
    const w = seedSequenceState(seedWords(seed), 8);
    // uint64 k = words 2k (low) and 2k+1 (high); initstate = s0·2^64 + s1, initseq = i0·2^64 + i1.
    const u64 = (k: number) => (BigInt(w[2 * k + 1]) << 32n) | BigInt(w[2 * k]);
    const initstate = (u64(0) << 64n) | u64(1);
    const initseq = (u64(2) << 64n) | u64(3);
    const inc = ((initseq << 1n) | 1n) & MASK128;
    let state = pcg64StepBig(0n, inc);
    state = pcg64StepBig((state + initstate) & MASK128, inc);
    bigToWords(state, this.words, 0);
    bigToWords(inc, this.words, 4);
    this.poolStart.set(this.words);
  }

  /** The 128-bit PCG state after the last consumed draw (numpy's `bit_generator.state`). */
  get state(): bigint {
    if (this.next === POOL) return wordsToBig(this.words, 0);
    const inc = wordsToBig(this.poolStart, 4);
    let state = wordsToBig(this.poolStart, 0);
    for (let k = 0; k < this.next; k++) state = pcg64StepBig(state, inc);
    return state;
  }

  get increment(): bigint {
    return wordsToBig(this.words, 4);
  }

  /**
   * Drops the pool's unconsumed draws by moving `words` back to the last consumed one (at most
   * POOL steps), so a bulk kernel can continue the stream from `words` itself.
   */
  private syncToConsumed(): void {
    if (this.next === POOL) return;
    this.words.set(this.poolStart);
    if (this.next > 0) pcg64Fill(this.words, this.pool, this.next);
    this.next = POOL;
    this.poolStart.set(this.words);
  }

  private refill(): void {
    this.poolStart.set(this.words);
    pcg64Fill(this.words, this.pool, POOL);
    this.next = 0;
  }

  /** Take the next 64-bit output into outHi/outLo. */
  private draw64(): void {
    if (this.next === POOL) this.refill();
    this.outLo = this.pool[2 * this.next];
    this.outHi = this.pool[2 * this.next + 1];
    this.next++;
  }

  /** numpy's next_uint64, as a bigint. */
  next64(): bigint {
    this.draw64();
    return (BigInt(this.outHi) << 32n) | BigInt(this.outLo);
  }

  /** numpy's next_uint32: the low half of a fresh 64-bit draw now, its high half on the next call. */
  next32(): number {
    if (this.hasUint32) {
      this.hasUint32 = false;
      return this.uinteger;
    }
    if (this.next === POOL) this.refill();
    const k = 2 * this.next++;
    this.hasUint32 = true;
    this.uinteger = this.pool[k + 1];
    return this.pool[k];
  }

  /** numpy's `Generator.random()`: (next64 >> 11) · 2^-53, a double in [0, 1). */
  random(): number {
    this.draw64();
    return (this.outHi * 2097152 + (this.outLo >>> 11)) * 1.1102230246251565e-16;
  }

  /** numpy's random_interval: a uniform integer in [0, max] by masked rejection. */
  interval(max: number): number {
    if (max === 0) return 0;
    if (max > MASK32) return this.interval64(max);
    let mask = max;
    mask |= mask >>> 1; mask |= mask >>> 2; mask |= mask >>> 4;
    mask |= mask >>> 8; mask |= mask >>> 16;
    mask >>>= 0;
    let value: number;
    while ((value = (this.next32() & mask) >>> 0) > max);
    return value;
  }

  private interval64(max: number): number {
    const m = BigInt(max);
    let mask = m;
    for (let s = 1n; s <= 32n; s <<= 1n) mask |= mask >> s;
    let value: bigint;
    while ((value = this.next64() & mask) > m);
    return Number(value);
  }

  /** `Generator.permutation(n)`: numpy's in-place Fisher–Yates shuffle of 0..n−1, from the top down. */
  permutation(n: number): Int32Array {
    if (!Number.isInteger(n) || n < 0 || n > 0x7fffffff) {
      throw new RangeError(`permutation: n must be an integer in [0, 2^31), got ${n}`);
    }
    const arr = new Int32Array(n);
    for (let i = 0; i < n; i++) arr[i] = i;
    for (let i = n - 1; i >= 1; i--) {
      const j = this.interval(i);
      const t = arr[i]; arr[i] = arr[j]; arr[j] = t;
    }
    return arr;
  }

  /**
   * `Generator.integers(low, high, size)` with numpy's default int64 dtype: uniform integers in
   * [low, high) by Lemire's method on next32 (ranges up to 2^32) or next64 (wider ranges).
   * Values must fit an Int32Array: −2^31 ≤ low < high ≤ 2^31.
   */
  integers(low: number, high: number, size: number): Int32Array {
    if (!Number.isInteger(size) || size < 0) {
      throw new RangeError(`integers: size must be a non-negative integer, got ${size}`);
    }
    const out = new Int32Array(size);
    this.fillIntegers(low, high, out);
    return out;
  }

  /** `integers(low, high, out.length)` written into `out`, so a bootstrap can reuse one buffer. */
  fillIntegers(low: number, high: number, out: Int32Array | Float64Array): void {
    if (!Number.isSafeInteger(low) || !Number.isSafeInteger(high) || high <= low) {
      throw new RangeError(`integers: need integers low < high, got low=${low}, high=${high}`);
    }
    if (out instanceof Int32Array && (low < -2147483648 || high > 2147483648)) {
      throw new RangeError(`integers: [${low}, ${high}) does not fit an Int32Array`);
    }
    const rng = high - low - 1;
    const size = out.length;
    if (rng === 0) {
      out.fill(low);
    } else if (rng <= MASK32) {
      this.fillLemire32(low, rng, out);
    } else {
      for (let i = 0; i < size; i++) out[i] = low + this.lemire64(rng);
    }
  }

  /**
   * numpy's buffered_bounded_lemire_uint32 drawn `out.length` times: uniform integers in [0, rng].
   * numpy computes the threshold only when leftover < rng + 1; since threshold < rng + 1 always,
   * testing `leftover < threshold` directly rejects exactly the same draws.
   */
  private fillLemire32(low: number, rng: number, out: Int32Array | Float64Array, bulk: Lemire32Kernel | null = lemire32Wasm): void {
    const rngExcl = rng + 1;
    const threshold = (MASK32 - rng) % rngExcl;
    const size = out.length;
    if (bulk && size >= BULK_MIN) {
      // The whole loop in WebAssembly (the bootstrap draws 40 million of these).
      this.syncToConsumed();
      const half = this.half;
      half[0] = this.hasUint32 ? 1 : 0;
      half[1] = this.uinteger;
      bulk(this.words, half, rngExcl, threshold, low, out);
      this.hasUint32 = half[0] === 1;
      this.uinteger = half[1];
      this.poolStart.set(this.words);
      return;
    }
    if (rngExcl <= 2097152) {
      // next32 · rngExcl < 2^53: the product is exact as a double. next32 is inlined on
      // locals (the bootstrap's hot loop); rejections, rare, go through the fields.
      const pool = this.pool;
      let pos = 2 * this.next;
      let has = this.hasUint32;
      let buffered = this.uinteger;
      for (let i = 0; i < size; i++) {
        let x: number;
        if (has) {
          has = false;
          x = buffered;
        } else {
          if (pos === 2 * POOL) {
            this.refill();
            pos = 0;
          }
          x = pool[pos];
          buffered = pool[pos + 1];
          pos += 2;
          has = true;
        }
        let m = x * rngExcl;
        let hi = Math.floor(m * INV_TWO32);
        if (m - hi * TWO32 < threshold) {
          this.next = pos >> 1; this.hasUint32 = has; this.uinteger = buffered;
          do {
            m = this.next32() * rngExcl;
            hi = Math.floor(m * INV_TWO32);
          } while (m - hi * TWO32 < threshold);
          pos = 2 * this.next; has = this.hasUint32; buffered = this.uinteger;
        }
        out[i] = low + hi;
      }
      this.next = pos >> 1; this.hasUint32 = has; this.uinteger = buffered;
      return;
    }
    for (let i = 0; i < size; i++) {
      let x = this.next32();
      while (mulLow32(x, rngExcl) < threshold) x = this.next32();
      out[i] = low + mulHigh32(x, rngExcl);
    }
  }

  /** numpy's bounded_lemire_uint64 for ranges beyond 32 bits (rare; BigInt is fine here). */
  private lemire64(rng: number): number {
    const rngExcl = BigInt(rng) + 1n;
    const M64 = 0xffffffffffffffffn;
    let m = this.next64() * rngExcl;
    let leftover = m & M64;
    if (leftover < rngExcl) {
      const threshold = (M64 - BigInt(rng)) % rngExcl;
      while (leftover < threshold) {
        m = this.next64() * rngExcl;
        leftover = m & M64;
      }
    }
    return Number(m >> 64n);
  }
}

/** Low 32 bits of x·y for uint32 x and y ≤ 2^32 (exact: Math.imul keeps the low bits). */
function mulLow32(x: number, y: number): number {
  return y === TWO32 ? 0 : Math.imul(x, y) >>> 0;
}

/** High 32 bits of the exact product x·y for uint32 x and y ≤ 2^32. */
function mulHigh32(x: number, y: number): number {
  const a = (x >>> 16) * y; // < 2^48
  const b = (x & 0xffff) * y; // < 2^48
  const aHi = Math.floor(a / 65536);
  return aHi + Math.floor(((a - aHi * 65536) * 65536 + b) / TWO32);
}

/** `np.random.default_rng(seed)`. */
export function defaultRng(seed: number | bigint): Generator {
  return new Generator(seed);
}
