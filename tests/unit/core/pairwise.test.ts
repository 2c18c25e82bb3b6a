import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairwiseMean, pairwiseSum } from '../../../src/core/pairwise';

/**
 * numpy's pairwise_sum (numpy/_core/src/umath/loops_utils.h.src), transcribed independently
 * and plainly: an array of eight accumulators, slices instead of index ranges.
 */
function numpyPairwiseSum(a: number[]): number {
  const n = a.length;
  if (n < 8) {
    let res = 0;
    for (const x of a) res += x;
    return res;
  }
  if (n <= 128) {
    const r = a.slice(0, 8);
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j] += a[i + j];
    let res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; i++) res += a[i];
    return res;
  }
  let n2 = Math.trunc(n / 2);
  n2 -= n2 % 8;
  return numpyPairwiseSum(a.slice(0, n2)) + numpyPairwiseSum(a.slice(n2));
}

function naiveSum(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s;
}

const deterministic = (n: number) => Array.from({ length: n }, (_, i) => ((i * 7919) % 1000) / 997);

describe('pairwiseSum / pairwiseMean', () => {
  it('equals the transcription of numpy for every n from 0 to 400 (all three branches)', () => {
    for (let n = 0; n <= 400; n++) {
      const a = deterministic(n);
      expect(pairwiseSum(a)).toBe(numpyPairwiseSum(a));
    }
  });

  it('equals the transcription on random data of random length, arrays and typed arrays alike', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { maxLength: 3000 }), (a) => {
      const want = numpyPairwiseSum(a);
      expect(pairwiseSum(a)).toBe(want);
      expect(pairwiseSum(Float64Array.from(a))).toBe(want);
    }), { numRuns: 200 });
  });

  it('sums a sub-range like the whole of a slice', () => {
    const a = deterministic(700);
    expect(pairwiseSum(a, 100, 650)).toBe(numpyPairwiseSum(a.slice(100, 650)));
  });

  it('n < 8 is the plain left-to-right sum', () => {
    for (let n = 0; n < 8; n++) {
      const a = deterministic(n).map((x) => x * 1e-3 + 0.1);
      expect(pairwiseSum(a)).toBe(naiveSum(a));
    }
  });

  it('differs from a running sum where numpy does: 1e16 followed by fifteen 1s', () => {
    // Running: every 1e16 + 1 is a tie and rounds back to 1e16 (spacing 2 there).
    // Pairwise: r0 = 1e16 + 1 → 1e16, r1..r7 = 1 + 1 = 2, combined exactly to 1e16 + 14.
    const a = [1e16, ...Array(15).fill(1)];
    expect(naiveSum(a)).toBe(1e16);
    expect(pairwiseSum(a)).toBe(1e16 + 14);
  });

  it('ten times 0.1: numpy gives 1.0, a running sum 0.9999999999999999', () => {
    const a = Array(10).fill(0.1);
    expect(pairwiseSum(a)).toBe(1);
    expect(naiveSum(a)).toBe(0.9999999999999999);
  });

  it('matches np.mean as printed by numpy 2.4.6 for a[i] = ((i·7919) mod 1000) / 997', () => {
    // >>> np.mean(np.array([((i*7919) % 1000)/997 for i in range(n)]))
    const numpyMeans: Array<[number, number]> = [
      [5, 0.6399197592778334], [8, 0.5932798395185557], [13, 0.4383920993750482],
      [128, 0.4986208625877633], [129, 0.4996695512895275], [300, 0.5020060180541625],
      [1001, 0.5005025065205607],
    ];
    for (const [n, mean] of numpyMeans) expect(pairwiseMean(deterministic(n))).toBe(mean);
    // And these are cases where the running mean is different, so the check has teeth.
    expect(naiveSum(deterministic(300)) / 300).not.toBe(0.5020060180541625);
  });

  it('the mean of nothing is NaN', () => {
    expect(pairwiseMean([])).toBeNaN();
  });
});

describe('pairwise sum in WebAssembly SIMD (pairwise-wasm.ts)', () => {
  it('equals pairwiseSum bit for bit at any offset and length', async () => {
    const { pairwiseSumWasm } = await import('../../../src/core/pairwise-wasm');
    const memory = new WebAssembly.Memory({ initial: 2 });
    const sum = pairwiseSumWasm(memory);
    expect(sum).not.toBeNull(); // Node has SIMD: the fast path must be the one tested
    const view = new Float64Array(memory.buffer);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ noNaN: true, min: -1e6, max: 1e6 }), fc.double({ min: -1e-300, max: 1e300 }), fc.constantFrom(0, -0, 0.1, 1e16, -1e16)), { maxLength: 3000 }),
        fc.integer({ min: 0, max: 64 }),
        (xs, offset) => {
          view.set(xs, offset);
          expect(Object.is(sum!(8 * offset, xs.length), pairwiseSum(view, offset, offset + xs.length))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
