import { expect, test } from 'vitest';
import fc from 'fast-check';
import { largestShareSE, meanSE } from '../../../src/core/standard-error';

test('meanSE of a small set is its mean and s/√n (values worked by hand)', () => {
  // 1, 2, 3, 4: mean 2.5, Σ(v − v̄)² = 5, s² = 5/3, se = √(5/3/4).
  const r = meanSE([1, 2, 3, 4]);
  expect(r.mean).toBe(2.5);
  expect(r.se).toBeCloseTo(Math.sqrt(5 / 12), 15);
  expect(meanSE([7, 7, 7])).toEqual({ mean: 7, se: 0 });
});

test('meanSE has no error for one value and nothing for none', () => {
  expect(meanSE([0.3])).toEqual({ mean: 0.3, se: NaN });
  expect(meanSE([])).toEqual({ mean: NaN, se: NaN });
});

test('meanSE: shifting every value moves the mean and leaves the error; scaling scales both', () => {
  fc.assert(
    fc.property(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 2, maxLength: 60 }), fc.double({ min: -5, max: 5, noNaN: true }), (xs, c) => {
      const base = meanSE(xs);
      const shifted = meanSE(xs.map((x) => x + c));
      const scaled = meanSE(xs.map((x) => 3 * x));
      return (
        Math.abs(shifted.mean - (base.mean + c)) < 1e-9 &&
        Math.abs(shifted.se - base.se) < 1e-9 &&
        Math.abs(scaled.mean - 3 * base.mean) < 1e-9 &&
        Math.abs(scaled.se - 3 * base.se) < 1e-9
      );
    }),
  );
});

test('largestShareSE is the binomial standard error at p = ½ and no share has a larger one', () => {
  expect(largestShareSE(25)).toBe(0.1);
  expect(largestShareSE(100)).toBe(0.05);
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, p) => Math.sqrt((p * (1 - p)) / n) <= largestShareSE(n) + 1e-15),
  );
});
