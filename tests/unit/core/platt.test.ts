import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitPlatt, plattMleExists, predictPlatt } from '../../../src/core/platt';
import reference from '../../fixtures/uncertainty/recalibration-reference.json';

describe('fitPlatt by hand', () => {
  it('fits a two-score design exactly', () => {
    // Scores −1 (outcomes 0, 0, 1) and +1 (0, 1, 1): two parameters fit two proportions exactly,
    // σ(−a + b) = 1/3 and σ(a + b) = 2/3 → b = 0, a = logit(2/3) = ln 2.
    const s = [-1, -1, -1, 1, 1, 1];
    const y = [0, 0, 1, 0, 1, 1];
    const fit = fitPlatt(s, y);
    expect(fit.targets).toBe('labels');
    expect(fit.a).toBeCloseTo(Math.LN2, 12);
    expect(fit.b).toBeCloseTo(0, 12);
    expect(predictPlatt(fit, -1)).toBeCloseTo(1 / 3, 12);
    // Platt's targets: N₊ = N₋ = 3, t₊ = 4/5, t₋ = 1/5. Mean target at −1: (1/5 + 1/5 + 4/5)/3 = 2/5,
    // at +1: 3/5 → a = logit(3/5) = ln(3/2), b = 0.
    const smoothed = fitPlatt(s, y, undefined, { targets: 'smoothed' });
    expect(smoothed.targets).toBe('smoothed');
    expect(smoothed.a).toBeCloseTo(Math.log(1.5), 12);
    expect(smoothed.b).toBeCloseTo(0, 12);
  });

  it('gives a constant map for equal scores', () => {
    // a = 0, b = logit(2/3) = ln 2.
    const fit = fitPlatt([0.5, 0.5, 0.5], [1, 0, 1]);
    expect(fit).toMatchObject({ a: 0, targets: 'labels', iterations: 0 });
    expect(fit.b).toBeCloseTo(Math.LN2, 15);
    // One class only: no MLE; smoothed t₊ = (3 + 1)/(3 + 2) = 4/5 → b = logit(4/5) = ln 4.
    const ones = fitPlatt([0.5, 0.5, 0.5], [1, 1, 1]);
    expect(ones.targets).toBe('smoothed');
    expect(ones.b).toBeCloseTo(Math.log(4), 14);
  });

  it('knows when the maximum-likelihood fit exists', () => {
    expect(plattMleExists([0, 1, 2, 3], [0, 1, 0, 1])).toBe(true);
    expect(plattMleExists([0, 1, 2, 3], [0, 0, 1, 1])).toBe(false); // separated
    expect(plattMleExists([0, 1, 1, 3], [0, 0, 1, 1])).toBe(false); // quasi-separated at 1
    expect(plattMleExists([0, 1, 2, 3], [1, 1, 0, 0])).toBe(false); // separated the other way
    expect(plattMleExists([0, 1, 2, 3], [1, 1, 1, 1])).toBe(false); // one class
    const sep = fitPlatt([0, 1, 2, 3], [0, 0, 1, 1]);
    expect(sep.targets).toBe('smoothed');
    expect(Number.isFinite(sep.a) && sep.a > 0).toBe(true);
    // Symmetric design and targets (1/4, 1/4, 3/4, 3/4): the fit is symmetric about 1.5.
    expect(predictPlatt(sep, 1.5)).toBeCloseTo(0.5, 12);
  });

  it('refuses bad input', () => {
    expect(() => fitPlatt([0, NaN], [0, 1])).toThrow(RangeError);
    expect(() => fitPlatt([0, 1], [0, 0.5])).toThrow(RangeError);
    expect(() => fitPlatt([0, 1], [0, 1], [])).toThrow(RangeError);
  });
});

describe('fitPlatt against scipy.optimize (trust-exact on the same log-likelihood)', () => {
  // The reference is polished to a gradient below 1e-14; both solve the same concave problem.
  for (const c of reference.platt) {
    it(`${c.name}: a and b within 1e-9 relative, probabilities within 1e-10`, () => {
      const fit = fitPlatt(c.score, c.y, undefined, { targets: c.requested as 'labels' | 'smoothed' });
      expect(fit.targets).toBe(c.targets);
      expect(Math.abs(fit.a - c.a)).toBeLessThan(1e-9 * Math.max(1, Math.abs(c.a)));
      expect(Math.abs(fit.b - c.b)).toBeLessThan(1e-9 * Math.max(1, Math.abs(c.b)));
      c.query.forEach((q, i) => expect(Math.abs(predictPlatt(fit, q) - c.predicted[i])).toBeLessThan(1e-10));
    });
  }
});

describe('fitPlatt properties', () => {
  it('does not depend on the score\u2019s units (no regularisation)', () => {
    // Scores on a grid of 0.001 (with ties): differences of subnormal size are no score's.
    const data = fc.array(fc.tuple(fc.integer({ min: -3000, max: 3000 }).map((k) => k / 1000), fc.integer({ min: 0, max: 1 })), { minLength: 4, maxLength: 80 });
    fc.assert(fc.property(data, fc.double({ min: 0.01, max: 100, noNaN: true }), fc.double({ min: -50, max: 50, noNaN: true }), (d, scale, shift) => {
      const s = d.map(([x]) => x), y = d.map(([, v]) => v);
      const f1 = fitPlatt(s, y);
      const f2 = fitPlatt(s.map((x) => x * scale + shift), y);
      expect(f2.targets).toBe(f1.targets);
      for (const x of s) expect(predictPlatt(f2, x * scale + shift)).toBeCloseTo(predictPlatt(f1, x), 8);
      // At the maximum the fitted probabilities sum to the targets' sum (the intercept's score equation).
      const n1 = y.filter((v) => v === 1).length;
      const t = f1.targets === 'labels' ? n1 : n1 * (n1 + 1) / (n1 + 2) + (y.length - n1) / (y.length - n1 + 2);
      expect(s.reduce((acc, x) => acc + predictPlatt(f1, x), 0)).toBeCloseTo(t, 8);
    }), { numRuns: 150 });
  });
});
