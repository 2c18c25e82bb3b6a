/**
 * numpy's SeedSequence, the first half of `default_rng(seed)`: it turns the seed into the
 * 256 bits that seed PCG64. All arithmetic is mod 2^32 (Math.imul and >>> 0).
 */

// SeedSequence constants (numpy/random/bit_generator.pyx).
const INIT_A = 0x43b0d7e5;
const MULT_A = 0x931e8875;
const INIT_B = 0x8b51f9dd;
const MULT_B = 0x58f38ded;
const MIX_MULT_L = 0xca01f9dd;
const MIX_MULT_R = 0x4973f715;
const POOL_SIZE = 4;

/** Seed words: the non-negative integer as little-endian uint32 words, [0] for 0 (numpy's _coerce_to_uint32_array). */
export function seedWords(seed: number | bigint): number[] {
  let s: bigint;
  if (typeof seed === 'bigint') {
    s = seed;
  } else {
    if (!Number.isSafeInteger(seed)) {
      throw new RangeError(`seed must be a non-negative safe integer or a bigint, got ${seed}`);
    }
    s = BigInt(seed);
  }
  if (s < 0n) throw new RangeError(`seed must be non-negative, got ${s}`);
  const words: number[] = [];
  do {
    words.push(Number(s & 0xffffffffn));
    s >>= 32n;
  } while (s > 0n);
  return words;
}

/** numpy's SeedSequence(entropy).generate_state(nWords, uint32), without spawn keys. */
export function seedSequenceState(entropy: readonly number[], nWords: number): Uint32Array {
  let hashConst = INIT_A;
  const hashmix = (value: number): number => {
    value = (value ^ hashConst) >>> 0;
    hashConst = Math.imul(hashConst, MULT_A) >>> 0;
    value = Math.imul(value, hashConst) >>> 0;
    return (value ^ (value >>> 16)) >>> 0;
  };
  const mix = (x: number, y: number): number => {
    const r = (Math.imul(MIX_MULT_L, x) - Math.imul(MIX_MULT_R, y)) >>> 0;
    return (r ^ (r >>> 16)) >>> 0;
  };
  const pool = new Uint32Array(POOL_SIZE);
  for (let i = 0; i < POOL_SIZE; i++) pool[i] = hashmix(i < entropy.length ? entropy[i] : 0);
  for (let src = 0; src < POOL_SIZE; src++) {
    for (let dst = 0; dst < POOL_SIZE; dst++) {
      if (src !== dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
    }
  }
  for (let src = POOL_SIZE; src < entropy.length; src++) {
    for (let dst = 0; dst < POOL_SIZE; dst++) pool[dst] = mix(pool[dst], hashmix(entropy[src]));
  }
  const out = new Uint32Array(nWords);
  let h = INIT_B;
  for (let i = 0; i < nWords; i++) {
    let v = (pool[i % POOL_SIZE] ^ h) >>> 0;
    h = Math.imul(h, MULT_B) >>> 0;
    v = Math.imul(v, h) >>> 0;
    out[i] = (v ^ (v >>> 16)) >>> 0;
  }
  return out;
}
