/**
 * EigV, Deg and Ecc from the similarity between groups of identical answers: a hand case, and the
 * same values as graphUncertainty (LM-Polygraph's conventions, graph-reference fixture) on the
 * expanded m×m matrix, for random similarities and group sizes.
 */
import { describe, expect, test } from 'vitest';
import { groupedGraphUncertainty } from '../../../src/core/grouped-graph-uncertainty';
import { classSizeGraphUncertainty, graphUncertainty } from '../../../src/core/graph-uncertainty';

/** The m×m matrix the groups stand for: sample i in group of(i). */
function expand(s: number[], sizes: number[]): { w: Float64Array; m: number } {
  const g = sizes.length;
  const of = sizes.flatMap((n, a) => Array<number>(n).fill(a));
  const m = of.length;
  const w = new Float64Array(m * m);
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) w[i * m + j] = s[of[i] * g + of[j]];
  return { w, m };
}

/** A seeded uniform stream (mulberry32), for reproducible random cases. */
function stream(seed: number) {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r ^= r + Math.imul(r ^ (r >>> 7), 61 | r);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

describe('graph uncertainty from group similarities', () => {
  test('hand case: two groups of 2 and 1 samples at cosine ½', () => {
    // W = [[1,1,½],[1,1,½],[½,½,1]]: Deg = 1 − (4·1 + 4·½ + 1)/9 = 2/9. Degrees δ = (2.5, 2); M =
    // [[2/2.5, √2·½/√5], [√2·½/√5, ½]] = [[0.8, 0.3162…], [0.3162…, 0.5]]: trace 1.3, determinant 0.3,
    // so μ = 1 and 0.3, EigV = 1.3, and L's eigenvalues are 0, 0.7 and 1 (once). Ecc keeps the two
    // below 0.9, whose span is the span of the group indicators, which holds 1: Ecc² = trace(P_S C)
    // = 2 − (1ᵀP_S1)/m = 2 − 1 = 1.
    const s = [1, 0.5, 0.5, 1];
    const got = groupedGraphUncertainty(s, [2, 1]);
    expect(got.deg).toBeCloseTo(2 / 9, 15);
    expect(got.eigV).toBeCloseTo(1.3, 14);
    expect(got.ecc).toBeCloseTo(1, 14);
    const { w, m } = expand(s, [2, 1]);
    const full = graphUncertainty(w, m);
    expect(full.ecc).toBeCloseTo(1, 12);
    expect(full.eigV).toBeCloseTo(1.3, 12);
  });

  test('the 0/1 same-group matrix is the partition’s closed forms', () => {
    const sizes = [5, 3, 1, 1];
    const identity = sizes.flatMap((_, a) => sizes.map((__, b) => (a === b ? 1 : 0)));
    const got = groupedGraphUncertainty(identity, sizes);
    const closed = classSizeGraphUncertainty(sizes);
    expect(got.eigV).toBeCloseTo(closed.eigV, 12);
    expect(got.deg).toBeCloseTo(closed.deg, 15);
    expect(got.ecc).toBeCloseTo(closed.ecc, 12);
  });

  test('equal to graphUncertainty on the expanded matrix, 200 random cases', () => {
    const rnd = stream(29);
    for (let t = 0; t < 200; t++) {
      const g = 1 + Math.floor(rnd() * 7);
      const sizes = Array.from({ length: g }, () => 1 + Math.floor(rnd() * 8));
      const s = new Array<number>(g * g).fill(0);
      for (let a = 0; a < g; a++) {
        s[a * g + a] = 1;
        for (let b = a + 1; b < g; b++) s[a * g + b] = s[b * g + a] = Math.round(rnd() * 1e4) / 1e4;
      }
      const { w, m } = expand(s, sizes);
      const full = graphUncertainty(w, m);
      const got = groupedGraphUncertainty(s, sizes);
      expect(Math.abs(got.eigV - full.eigV), `eigV case ${t}`).toBeLessThan(1e-9);
      expect(Math.abs(got.deg - full.deg), `deg case ${t}`).toBeLessThan(1e-12);
      expect(Math.abs(got.ecc - full.ecc), `ecc case ${t}`).toBeLessThan(1e-9);
    }
  });

  test('a group with no similarity to anything (degree 0) leaves EigV and Ecc undefined', () => {
    const got = groupedGraphUncertainty([0], [2]);
    expect(got.eigV).toBeNaN();
    expect(got.ecc).toBeNaN();
    expect(got.deg).toBe(1);
  });
});
