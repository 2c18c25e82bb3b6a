import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { wilsonInterval } from '../../../src/core/wilson';

describe('wilsonInterval', () => {
  test('matches the closed form for 8 of 10 at the exact 97.5 % normal quantile', () => {
    const [lo, hi] = wilsonInterval(8, 10, 1.9599639845400536);
    // Reference values: the Wilson formula evaluated in Python with statistics.NormalDist().inv_cdf(0.975).
    expect(lo).toBeCloseTo(0.4901624, 6);
    expect(hi).toBeCloseTo(0.9433178, 6);
  });
  test('stays inside [0, 1] at the extremes and is empty for n = 0', () => {
    expect(wilsonInterval(0, 5)[0]).toBe(0);
    expect(wilsonInterval(5, 5)[1]).toBeCloseTo(1, 12);
    expect(wilsonInterval(0, 0).every(Number.isNaN)).toBe(true);
  });
  test('always contains the observed proportion and narrows as n grows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, p) => {
        const k = Math.round(p * n);
        const [lo, hi] = wilsonInterval(k, n);
        const [lo4, hi4] = wilsonInterval(4 * k, 4 * n);
        return lo <= k / n + 1e-12 && hi >= k / n - 1e-12 && hi4 - lo4 <= hi - lo + 1e-12;
      }),
    );
  });
});
