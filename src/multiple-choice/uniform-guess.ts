/**
 * ConfidenceBench's rule for a reply that cannot be read or that refuses: it is not dropped (that
 * would flatter models that refuse the hardest questions) but scored as a uniform guess, a random
 * option with stated probability 1/k. The letter comes from numpy's `default_rng`, seeded per
 * (run seed, question id) so a rerun, or Python with the same seed, draws the same letter:
 *   seed = runSeed · 2^32 + fnv1a32(utf8(id))   (numpy: np.random.default_rng(seed).integers(0, k))
 */
import { defaultRng } from '../core/rng';

/** 32-bit FNV-1a over the UTF-8 bytes of a string. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The seed of one question's fallback draw; runSeed must be a non-negative integer. */
export function fallbackSeed(runSeed: number, questionId: string): bigint {
  if (!Number.isSafeInteger(runSeed) || runSeed < 0) throw new RangeError(`run seed must be a non-negative integer, got ${runSeed}`);
  return (BigInt(runSeed) << 32n) | BigInt(fnv1a32(questionId));
}

export interface UniformGuess {
  index: number;
  probability: number;
}

/** The uniform guess for one question of one run. */
export function uniformGuess(runSeed: number, questionId: string, k: number): UniformGuess {
  const index = defaultRng(fallbackSeed(runSeed, questionId)).integers(0, k, 1)[0];
  return { index, probability: 1 / k };
}
