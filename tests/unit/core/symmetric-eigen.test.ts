import { describe, expect, it } from 'vitest';
import { symmetricEigen } from '../../../src/core/symmetric-eigen';
import { defaultRng } from '../../../src/core/rng';

/** ‖A V − V Λ‖_max and ‖VᵀV − I‖_max of a decomposition. */
function residuals(a: Float64Array, n: number, values: Float64Array, v: Float64Array): { av: number; orth: number } {
  let av = 0;
  let orth = 0;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < n; k++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += a[i * n + j] * v[j * n + k];
      av = Math.max(av, Math.abs(s - values[k] * v[i * n + k]));
      let dot = 0;
      for (let j = 0; j < n; j++) dot += v[j * n + i] * v[j * n + k];
      orth = Math.max(orth, Math.abs(dot - (i === k ? 1 : 0)));
    }
  }
  return { av, orth };
}

function randomSymmetric(n: number, seed: number): Float64Array {
  const rng = defaultRng(seed);
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) a[i * n + j] = a[j * n + i] = rng.random() * 2 - 1;
  return a;
}

describe('symmetricEigen (Householder + implicit QL)', () => {
  it('2×2 [[2,1],[1,2]]: eigenvalues 1 and 3, eigenvectors (1,−1)/√2 and (1,1)/√2 up to sign', () => {
    const { values, vectors } = symmetricEigen([2, 1, 1, 2], 2);
    expect(values[0]).toBeCloseTo(1, 15);
    expect(values[1]).toBeCloseTo(3, 15);
    const v = vectors!;
    expect(Math.abs(v[0])).toBeCloseTo(Math.SQRT1_2, 15);
    expect(v[2]).toBeCloseTo(-v[0], 15); // column 0 ∝ (1, −1)
    expect(v[3]).toBeCloseTo(v[1], 15); // column 1 ∝ (1, 1)
  });

  it('the path Laplacian tridiag(−1, 2, −1) of size 50 has eigenvalues 2 − 2cos(kπ/51)', () => {
    const n = 50;
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      a[i * n + i] = 2;
      if (i + 1 < n) a[i * n + i + 1] = a[(i + 1) * n + i] = -1;
    }
    const { values, vectors } = symmetricEigen(a, n);
    for (let k = 1; k <= n; k++) expect(Math.abs(values[k - 1] - (2 - 2 * Math.cos((k * Math.PI) / (n + 1))))).toBeLessThan(1e-13);
    const r = residuals(a, n, values, vectors!);
    expect(r.av).toBeLessThan(1e-13);
    expect(r.orth).toBeLessThan(1e-13);
  });

  it('the all-ones matrix J_n: eigenvalue n once and 0 with multiplicity n − 1 (a repeated eigenvalue)', () => {
    const n = 7;
    const { values, vectors } = symmetricEigen(new Float64Array(n * n).fill(1), n);
    for (let k = 0; k < n - 1; k++) expect(Math.abs(values[k])).toBeLessThan(1e-14);
    expect(values[n - 1]).toBeCloseTo(n, 13);
    const r = residuals(new Float64Array(n * n).fill(1), n, values, vectors!);
    expect(r.orth).toBeLessThan(1e-14);
  });

  it('A = H diag(λ) H for a Householder reflection H recovers λ = (−3, 1e−6, 2, 2, 7), repeated value included', () => {
    const lambda = [2, -3, 7, 1e-6, 2];
    const u = [0.3, -1.2, 0.5, 2, 0.7];
    const uu = u.reduce((s, x) => s + x * x, 0);
    const n = 5;
    const h = (i: number, j: number): number => (i === j ? 1 : 0) - (2 * u[i] * u[j]) / uu;
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) a[i * n + j] += h(i, k) * lambda[k] * h(k, j);
    const { values, vectors } = symmetricEigen(a, n);
    const expected = [-3, 1e-6, 2, 2, 7];
    for (let k = 0; k < n; k++) expect(Math.abs(values[k] - expected[k])).toBeLessThan(1e-14 * 7 * 10);
    expect(residuals(a, n, values, vectors!).orth).toBeLessThan(1e-14);
  });

  it('a diagonal matrix comes back sorted, with unit vectors', () => {
    const { values, vectors } = symmetricEigen([3, 0, 0, 0, -1, 0, 0, 0, 2], 3);
    expect([...values]).toEqual([-1, 2, 3]);
    expect([...vectors!]).toEqual([0, 0, 1, 1, 0, 0, 0, 1, 0]);
  });

  it('random symmetric matrices up to 80×80: A V = V Λ and VᵀV = I to 1e-12, trace preserved', () => {
    for (const [n, seed] of [[3, 1], [10, 2], [50, 3], [80, 4]] as const) {
      const a = randomSymmetric(n, seed);
      const { values, vectors } = symmetricEigen(a, n);
      const r = residuals(a, n, values, vectors!);
      expect(r.av).toBeLessThan(1e-12);
      expect(r.orth).toBeLessThan(1e-12);
      let trace = 0;
      for (let i = 0; i < n; i++) trace += a[i * n + i];
      expect(values.reduce((s, x) => s + x, 0)).toBeCloseTo(trace, 11);
      for (let k = 1; k < n; k++) expect(values[k]).toBeGreaterThanOrEqual(values[k - 1]);
    }
  });

  it('reads only the lower triangle, and the values alone match the values with vectors', () => {
    const a = randomSymmetric(12, 9);
    const upper = new Float64Array(a);
    for (let i = 0; i < 12; i++) for (let j = i + 1; j < 12; j++) upper[i * 12 + j] = 99;
    const full = symmetricEigen(a, 12);
    expect([...symmetricEigen(upper, 12).values]).toEqual([...full.values]);
    const alone = symmetricEigen(a, 12, { vectors: false });
    expect(alone.vectors).toBeUndefined();
    expect([...alone.values]).toEqual([...full.values]);
  });

  it('empty, 1×1, and non-finite input (NaN out)', () => {
    expect(symmetricEigen([], 0).values.length).toBe(0);
    expect([...symmetricEigen([4], 1).values]).toEqual([4]);
    const bad = symmetricEigen([1, NaN, NaN, 1], 2);
    expect([...bad.values].every(Number.isNaN)).toBe(true);
    expect(() => symmetricEigen([1, 2, 3], 2)).toThrow(RangeError);
  });
});
