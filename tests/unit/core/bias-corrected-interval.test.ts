import fc from 'fast-check';
import { expect, test } from 'vitest';
import { biasCorrectedInterval, percentileInterval } from '../../../src/core/bootstrap';

// Replicates 0.060, 0.061, … 0.159 around an estimate of 0.050: every replicate is above it, as
// for a small-sample binned ECE. numpy: np.percentile(r, [2.5, 97.5]) = [0.062475, 0.156525], r.mean() = 0.1095.
const reps = Float64Array.from({ length: 100 }, (_, i) => 0.06 + 0.001 * i);

test('where the percentile interval misses the estimate, the bias-corrected one is centred on the corrected estimate and contains it', () => {
  const [p, lo, hi] = percentileInterval(0.05, reps);
  expect(p).toBe(0.05);
  expect(lo).toBeCloseTo(0.062475, 12);
  expect(hi).toBeCloseTo(0.156525, 12);
  expect(lo > p).toBe(true); // the percentile interval misses its own estimate

  // 2·0.05 − 0.1095 < 0 → 0; basic interval [0.1 − 0.156525, 0.1 − 0.062475] → [0, 0.037525].
  const [est, blo, bhi] = biasCorrectedInterval(0.05, reps);
  expect(est).toBe(0);
  expect(blo).toBe(0);
  expect(bhi).toBeCloseTo(0.037525, 12);
});

test('an unbiased spread gives back the estimate and the mirrored percentiles', () => {
  const sym = Float64Array.from({ length: 101 }, (_, i) => 0.2 + 0.001 * (i - 50));
  const [est, lo, hi] = biasCorrectedInterval(0.2, sym);
  expect(est).toBeCloseTo(0.2, 12);
  expect(lo).toBeCloseTo(0.2 - 0.0475, 12);
  expect(hi).toBeCloseTo(0.2 + 0.0475, 12);
});

test('always inside [0, 1] and always containing its estimate; too few finite replicates give none', () => {
  fc.assert(
    fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 50, maxLength: 200 }), (point, values) => {
      const [est, lo, hi] = biasCorrectedInterval(point, values);
      return lo >= 0 && hi <= 1 && lo <= est && est <= hi;
    }),
  );
  expect(biasCorrectedInterval(0.1, [0.1, NaN, 0.2])).toEqual([NaN, NaN, NaN]);
  expect(biasCorrectedInterval(NaN, reps)).toEqual([NaN, NaN, NaN]);
});
