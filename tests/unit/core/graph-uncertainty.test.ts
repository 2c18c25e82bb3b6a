import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  classSizeGraphUncertainty, degreeMatrixUncertainty, eigValLaplacian, graphUncertainty, partitionGraphUncertainty, sameClassSimilarity,
} from '../../../src/core/graph-uncertainty';
import { defaultRng } from '../../../src/core/rng';

interface GraphValues { eigV: number; deg: number; ecc: number }
interface Fixture {
  lmPolygraphCommit: string;
  nli: { name: string; m: number; entail: number[]; contra: number[]; entailAffinity: GraphValues; contraAffinity: GraphValues }[];
  partitions: { labels: number[]; graph: GraphValues }[];
  jaccard: { texts: string[]; similarity: number[]; graph: GraphValues }[];
}
const fixture = JSON.parse(readFileSync(new URL('../../fixtures/uncertainty/graph-reference.json', import.meta.url), 'utf8')) as Fixture;

function expectClose(actual: GraphValues, expected: GraphValues, tolerance: number): void {
  for (const k of ['eigV', 'deg', 'ecc'] as const) expect(Math.abs(actual[k] - expected[k]), k).toBeLessThanOrEqual(tolerance);
}

/** W = [[1, a], [a, 1]]: worked by hand below. */
const pair = (a: number): number[] => [1, a, a, 1];

describe('graph uncertainty: hand-computed cases', () => {
  // m = 2, W = [[1, a], [a, 1]]: d = (1 + a, 1 + a), D^{-1/2} W D^{-1/2} = W/(1 + a) has eigenvalues
  // 1 and (1 − a)/(1 + a), so L has 0 and 2a/(1 + a).
  // EigV = 1 + (1 − a)/(1 + a) = 2/(1 + a).  Deg = (2·2 − (2 + 2a))/4 = (1 − a)/2.
  // Ecc: λ = 0 has eigenvector (1, 1)/√2 (centred: 0); λ = 2a/(1 + a) has (1, −1)/√2 (centred norm 1)
  // and is kept iff 2a/(1 + a) < 0.9, i.e. a < 9/11. So Ecc = 1 for a < 9/11, else 0.
  it('m = 2, a = 0.5: EigV 4/3, Deg 1/4, Ecc 1', () => {
    expectClose(graphUncertainty(pair(0.5), 2), { eigV: 4 / 3, deg: 0.25, ecc: 1 }, 1e-14);
  });
  it('m = 2, a = 0.9: EigV 2/1.9, Deg 0.05, Ecc 0 (λ = 1.8/1.9 ≥ 0.9 is not kept)', () => {
    expectClose(graphUncertainty(pair(0.9), 2), { eigV: 2 / 1.9, deg: 0.05, ecc: 0 }, 1e-14);
  });
  it('the Ecc threshold is an option: with 0.95, λ = 1.8/1.9 ≈ 0.947 is kept and Ecc = 1', () => {
    expect(graphUncertainty(pair(0.9), 2, { eccThreshold: 0.95 }).ecc).toBeCloseTo(1, 14);
  });
  it('an asymmetric W is symmetrised as (W + Wᵀ)/2: [[1, 0.2], [0.8, 1]] behaves as a = 0.5', () => {
    expectClose(graphUncertainty([1, 0.2, 0.8, 1], 2), { eigV: 4 / 3, deg: 0.25, ecc: 1 }, 1e-14);
  });
  it('the diagonal counts in Deg: [[0.5, 0.5], [0.5, 0.5]] has Deg = 1 − 2/4 = 0.5, EigV 1 (rank one), Ecc 0', () => {
    // d = (1, 1), L = I − W has eigenvalues 0 and 1: EigV = 1 + 0; λ = 1 is not kept, so Ecc = 0.
    expectClose(graphUncertainty([0.5, 0.5, 0.5, 0.5], 2), { eigV: 1, deg: 0.5, ecc: 0 }, 1e-14);
  });
  it('m = 1: EigV 1, Deg 1 − w, Ecc 0', () => {
    expectClose(graphUncertainty([0.9], 1), { eigV: 1, deg: 0.1, ecc: 0 }, 1e-15);
  });
  it('a zero row sum leaves D^{-1/2} undefined: EigV and Ecc NaN, Deg still 1 − mean', () => {
    const g = graphUncertainty([0, 0, 0, 1], 2);
    expect(g.eigV).toBeNaN();
    expect(g.ecc).toBeNaN();
    expect(g.deg).toBeCloseTo(0.75, 15);
  });
  it('no samples: every value NaN; a matrix of the wrong size throws', () => {
    const g = graphUncertainty([], 0);
    expect([g.eigV, g.deg, g.ecc].every(Number.isNaN)).toBe(true);
    expect(() => graphUncertainty([1, 0, 0], 2)).toThrow(RangeError);
  });
  it('eigValLaplacian and degreeMatrixUncertainty alone agree with graphUncertainty', () => {
    const w = fixture.nli[4].entail;
    const g = graphUncertainty(w, fixture.nli[4].m);
    expect(eigValLaplacian(w, fixture.nli[4].m)).toBeCloseTo(g.eigV, 12);
    expect(degreeMatrixUncertainty(w, fixture.nli[4].m)).toBe(g.deg);
  });
  it('relabelling the samples (permuting W) changes nothing', () => {
    const { m, entail } = fixture.nli[5];
    const rng = defaultRng(3);
    const perm = Array.from({ length: m }, (_, i) => i);
    for (let i = m - 1; i > 0; i--) {
      const j = Math.floor(rng.random() * (i + 1));
      [perm[i], perm[j]] = [perm[j], perm[i]];
    }
    const permuted = new Float64Array(m * m);
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) permuted[i * m + j] = entail[perm[i] * m + perm[j]];
    expectClose(graphUncertainty(permuted, m), graphUncertainty(entail, m), 1e-12);
  });
});

describe('partition closed forms: EigV = K, Deg = 1 − Σn_c²/m², Ecc = √(K − 1)', () => {
  it('hand-computed: labels [0, 0, 1] give K = 2, Deg = 1 − 5/9 = 4/9, Ecc = 1', () => {
    expect(partitionGraphUncertainty([0, 0, 1])).toEqual({ eigV: 2, deg: 4 / 9, ecc: 1 });
  });
  it('hand-computed: four singletons give K = 4, Deg = 3/4, Ecc = √3; one class gives 1, 0, 0', () => {
    expect(partitionGraphUncertainty([3, 1, 0, 2])).toEqual({ eigV: 4, deg: 0.75, ecc: Math.sqrt(3) });
    expect(partitionGraphUncertainty([5, 5, 5])).toEqual({ eigV: 1, deg: 0, ecc: 0 });
  });
  it('from class sizes, empty classes ignored: [2, 0, 1] is the partition [0, 0, 2]', () => {
    expect(classSizeGraphUncertainty([2, 0, 1])).toEqual(partitionGraphUncertainty([0, 0, 2]));
    expect(classSizeGraphUncertainty([2, 0, 1])).toEqual({ eigV: 2, deg: 4 / 9, ecc: 1 });
    expect(classSizeGraphUncertainty([0, 0]).eigV).toBeNaN();
  });
  it('no samples: NaN; a label that is not a non-negative integer throws', () => {
    const g = partitionGraphUncertainty([]);
    expect([g.eigV, g.deg, g.ecc].every(Number.isNaN)).toBe(true);
    expect(() => partitionGraphUncertainty([0, -1])).toThrow(RangeError);
    expect(() => partitionGraphUncertainty([0, 1.5])).toThrow(RangeError);
  });
  it('equal the general computation on the 0/1 same-class matrix, for 200 random partitions (m ≤ 60)', () => {
    const rng = defaultRng(29);
    for (let t = 0; t < 200; t++) {
      const m = 1 + Math.floor(rng.random() * 60);
      const k = 1 + Math.floor(rng.random() * Math.min(m, 12));
      const labels = Array.from({ length: m }, () => Math.floor(rng.random() * k));
      expectClose(graphUncertainty(sameClassSimilarity(labels), m), partitionGraphUncertainty(labels), 1e-10);
    }
  });
});

describe(`LM-Polygraph's estimators (commit ${fixture.lmPolygraphCommit.slice(0, 7)}) on the shared fixture, to 1e-9`, () => {
  it.each(fixture.nli.map((c) => [c.name, c] as const))('%s: affinity "entail" (W = p_entail)', (_, c) => {
    expectClose(graphUncertainty(c.entail, c.m), c.entailAffinity, 1e-9);
  });
  it.each(fixture.nli.map((c) => [c.name, c] as const))('%s: affinity "contra" (W = 1 − p_contra)', (_, c) => {
    expectClose(graphUncertainty(c.contra.map((x) => 1 - x), c.m), c.contraAffinity, 1e-9);
  });
  it('partitions: LM-Polygraph on the same-class matrix equals the closed forms and the general path', () => {
    for (const c of fixture.partitions) {
      expectClose(partitionGraphUncertainty(c.labels), c.graph, 1e-9);
      expectClose(graphUncertainty(sameClassSimilarity(c.labels), c.labels.length), c.graph, 1e-9);
    }
  });
});
