import { describe, expect, test } from 'vitest';
import { binomialCdf, clopperPearsonUpper, logGamma, upperBoundAtMost } from '../../../src/core/binomial-bound';

describe('Clopper–Pearson upper bound', () => {
  // Reference values: scipy.stats.beta.ppf(1 − δ, k + 1, n − k).
  test.each([
    [0, 10, 0.05, 0.2588655508930522],
    [1, 10, 0.05, 0.39416330243650466],
    [5, 100, 0.05, 0.1022533776432745],
    [3, 50, 0.001, 0.23630237207145427],
    [0, 1, 0.05, 0.95],
    [20, 1000, 0.01, 0.03288615444920424],
  ])('%i errors of %i at δ = %f: %f', (k, n, delta, want) => {
    expect(clopperPearsonUpper(k, n, delta)).toBeCloseTo(want, 10);
  });

  test('k = 0 has the closed form 1 − δ^(1/n); k = n gives 1; nothing answered gives NaN', () => {
    expect(clopperPearsonUpper(0, 37, 0.02)).toBeCloseTo(1 - 0.02 ** (1 / 37), 12);
    expect(clopperPearsonUpper(10, 10, 0.05)).toBe(1);
    expect(clopperPearsonUpper(0, 0, 0.05)).toBeNaN();
  });

  test('binomial cdf against scipy.stats.binom.cdf; the one-evaluation check agrees with the bound', () => {
    expect(binomialCdf(1, 10, 0.1)).toBeCloseTo(0.7360989291, 10);
    expect(binomialCdf(5, 100, 0.1)).toBeCloseTo(0.05757688648703396, 12);
    expect(binomialCdf(3, 50, 0.1)).toBeCloseTo(0.250293905953308, 12);
    expect(binomialCdf(20, 1000, 0.1) / 5.962487876597277e-24).toBeCloseTo(1, 8);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 12);
    // 5 of 100 at δ = 0.05: bound 0.10225, so ≤ 0.11 but not ≤ 0.10.
    expect(upperBoundAtMost(5, 100, 0.05, 0.11)).toBe(true);
    expect(upperBoundAtMost(5, 100, 0.05, 0.1)).toBe(false);
    expect(upperBoundAtMost(0, 0, 0.05, 0.5)).toBe(false);
  });
});
