import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitIsotonic, pava, predictIsotonic } from '../../../src/core/isotonic';
import reference from '../../fixtures/uncertainty/recalibration-reference.json';

describe('pava', () => {
  it('pools adjacent violators, by weight', () => {
    // 1, 3, 2, 4: 3 > 2 pool to (3 + 2)/2 = 2.5.
    expect(Array.from(pava([1, 3, 2, 4], [1, 1, 1, 1]))).toEqual([1, 2.5, 2.5, 4]);
    // 3 (weight 1) above 1 (weight 3): (3·1 + 1·3)/4 = 1.5.
    expect(Array.from(pava([3, 1], [1, 3]))).toEqual([1.5, 1.5]);
    // A cascade: 5 | 0 pools to 5/2 (weight 2), then with the next 0 to 5/3, then to 5/4.
    expect(Array.from(pava([5, 0, 0, 0], [1, 1, 1, 1]))).toEqual([1.25, 1.25, 1.25, 1.25]);
    expect(Array.from(pava([], []))).toEqual([]);
  });

  it('is non-decreasing, keeps the weighted total and is the projection on the non-decreasing sequences', () => {
    const data = fc.array(fc.tuple(fc.double({ min: -5, max: 5, noNaN: true }), fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 60 });
    fc.assert(fc.property(data, (d) => {
      const v = d.map(([x]) => x), w = d.map(([, x]) => x);
      const f = pava(v, w);
      for (let i = 1; i < f.length; i++) expect(f[i]).toBeGreaterThanOrEqual(f[i - 1] - 1e-12);
      const total = (a: ArrayLike<number>) => Array.from(a).reduce((s, x, i) => s + w[i] * x, 0);
      expect(total(f)).toBeCloseTo(total(v), 9);
      // Projection property: <v − f, f> = 0 (PAV is the L2 projection on the monotone cone).
      let inner = 0;
      for (let i = 0; i < f.length; i++) inner += w[i] * (v[i] - f[i]) * f[i];
      expect(Math.abs(inner)).toBeLessThan(1e-8);
    }), { numRuns: 200 });
  });
});

describe('fitIsotonic / predictIsotonic', () => {
  it('pools tied scores, interpolates linearly and clips', () => {
    // Distinct scores 0.1, 0.2, 0.3 with mean outcomes 0, 1/2 (two rows), 0 and weights 1, 2, 1.
    // PAV: 1/2 (w 2) above 0 (w 1) pools to (1 + 0)/3 = 1/3. Fitted: 0, 1/3, 1/3.
    const map = fitIsotonic([0.2, 0.1, 0.3, 0.2], [1, 0, 0, 0]);
    expect(Array.from(map.x)).toEqual([0.1, 0.2, 0.3]);
    expect(Array.from(map.weight)).toEqual([1, 2, 1]);
    expect(map.fitted[0]).toBe(0);
    expect(map.fitted[1]).toBeCloseTo(1 / 3, 15);
    expect(map.fitted[2]).toBeCloseTo(1 / 3, 15);
    // Halfway between 0.1 (0) and 0.2 (1/3): 1/6.
    expect(predictIsotonic(map, 0.15)).toBeCloseTo(1 / 6, 14);
    expect(predictIsotonic(map, 0.2)).toBe(map.fitted[1]);
    expect(predictIsotonic(map, -4)).toBe(0); // clipped below
    expect(predictIsotonic(map, 9)).toBe(map.fitted[2]); // clipped above
    expect(predictIsotonic(map, NaN)).toBeNaN();
  });

  it('fits only the given rows', () => {
    const map = fitIsotonic([0.1, 0.9, 0.5, 0.7], [1, 0, 0, 1], [2, 3]);
    expect(Array.from(map.x)).toEqual([0.5, 0.7]);
    expect(Array.from(map.fitted)).toEqual([0, 1]);
    // One distinct score: a constant map.
    const one = fitIsotonic([0.4, 0.4, 0.4], [1, 0, 1]);
    expect(predictIsotonic(one, 0)).toBeCloseTo(2 / 3, 15);
    expect(predictIsotonic(one, 1)).toBeCloseTo(2 / 3, 15);
  });

  it('refuses non-finite scores and empty fits', () => {
    expect(() => fitIsotonic([0.1, Infinity], [1, 0])).toThrow(RangeError);
    expect(() => fitIsotonic([0.1], [1], [])).toThrow(RangeError);
  });

  for (const c of reference.isotonic) {
    it(`matches scipy.optimize.isotonic_regression + np.interp within 1e-9 (${c.name})`, () => {
      const map = fitIsotonic(c.score, c.y);
      expect(Array.from(map.x)).toEqual(c.x.map((v) => v + 0)); // −0 + 0 = 0: the map keeps one zero, +0
      expect(map.fitted.length).toBe(c.fitted.length);
      for (let i = 0; i < c.fitted.length; i++) expect(Math.abs(map.fitted[i] - c.fitted[i])).toBeLessThan(1e-9);
      c.query.forEach((q, i) => expect(Math.abs(predictIsotonic(map, q) - c.predicted[i])).toBeLessThan(1e-9));
    });
  }
});
