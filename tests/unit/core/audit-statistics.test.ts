/**
 * The audit's statistics against hand-computed values (arithmetic in the comments), the formulas
 * of scikit-learn's cohen_kappa_score and adjusted_rand_score, and Krippendorff's own worked example.
 */
import { describe, expect, it } from 'vitest';
import { cohenKappa, confusionMatrix, gradeAgreement, kappaOfTable } from '../../../src/core/grade-agreement';
import { adjustedRandIndex, labelsOfClasses, pairCounts, pairwisePrecisionRecall, partitionAgreement } from '../../../src/core/partition-agreement';
import { alphaWithInterval, coincidences, krippendorffAlphaNominal } from '../../../src/core/krippendorff-alpha';
import { agreementSampleSize, chanceAgreement, kappaSampleSize } from '../../../src/core/audit-sample-size';
import { eceShift } from '../../../src/core/ece-shift';
import { eceEqualWidth } from '../../../src/core/ece';

describe("Cohen's κ", () => {
  it('matches a hand computation over three categories', () => {
    // automatic: C C C C C I I I N N ; person: C C C C I I I N N C  (C=0, I=1, N=2)
    const auto = [0, 0, 0, 0, 0, 1, 1, 1, 2, 2];
    const person = [0, 0, 0, 0, 1, 1, 1, 2, 2, 0];
    // table rows=auto: C→[4 C, 1 I, 0 N]; I→[0, 2, 1]; N→[1, 0, 1]
    expect(confusionMatrix(auto, person, 3)).toEqual([[4, 1, 0], [0, 2, 1], [1, 0, 1]]);
    // p_o = (4+2+1)/10 = 0.7; marginals auto (0.5, 0.3, 0.2), person (0.5, 0.3, 0.2)
    // p_e = 0.25 + 0.09 + 0.04 = 0.38; κ = (0.7 − 0.38)/(1 − 0.38) = 0.32/0.62 = 0.516129…
    expect(cohenKappa(auto, person, 3)).toBeCloseTo(0.32 / 0.62, 12);
    expect(kappaOfTable(confusionMatrix(auto, person, 3)).agreement).toBeCloseTo(0.7, 12);
  });

  it('is sklearn’s value on its textbook case and NaN when chance explains everything', () => {
    // sklearn: cohen_kappa_score([0,1,1,0,1],[0,1,0,0,1]): p_o = 4/5, p_e = (2/5·3/5 + 3/5·2/5) = 12/25
    // κ = (0.8 − 0.48)/(0.52) = 0.615384…
    expect(cohenKappa([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], 2)).toBeCloseTo(0.32 / 0.52, 12);
    expect(cohenKappa([1, 1, 1], [1, 1, 1], 3)).toBeNaN();
  });

  it('gives Wilson and bootstrap intervals around its estimates, seeded', () => {
    const auto = Array.from({ length: 60 }, (_, i) => i % 3);
    const person = auto.map((g, i) => (i % 7 === 0 ? (g + 1) % 3 : g));
    const a = gradeAgreement(auto, person, 3, { B: 400, seed: 3 });
    expect(a.agreement[0]).toBeCloseTo(51 / 60, 12); // 9 of 60 indices are multiples of 7
    expect(a.agreement[1]).toBeLessThan(a.agreement[0]);
    expect(a.agreement[2]).toBeGreaterThan(a.agreement[0]);
    expect(a.kappa[1]).toBeLessThan(a.kappa[0]);
    expect(a.kappa[2]).toBeGreaterThan(a.kappa[0]);
    expect(gradeAgreement(auto, person, 3, { B: 400, seed: 3 })).toEqual(a);
  });
});

describe('partitions: ARI and pairwise precision/recall', () => {
  it('counts pairs and matches the adjusted Rand index by hand', () => {
    // automatic {0,1,2}{3,4}; person {0,1}{2,3,4}
    const auto = [0, 0, 0, 1, 1];
    const person = [0, 0, 1, 1, 1];
    // contingency: (a0,p0)=2 (a0,p1)=1 (a1,p1)=2; tp = C(2,2)+C(1,2)+C(2,2) = 2
    // same in auto: C(3,2)+C(2,2) = 4 → fp = 2; same in person: C(2,2)+C(3,2) = 4 → fn = 2; pairs C(5,2)=10 → tn = 4
    const c = pairCounts(auto, person);
    expect(c).toEqual({ tp: 2, fp: 2, fn: 2, tn: 4 });
    // Hubert–Arabie: index 2, expected 4·4/10 = 1.6, max (4+4)/2 = 4 → (2 − 1.6)/(4 − 1.6) = 0.4/2.4 = 1/6
    // sklearn's pair form: 2(2·4 − 2·2)/((2+2)(2+4) + (2+2)(2+4)) = 8/48 = 1/6
    expect(adjustedRandIndex(auto, person)).toBeCloseTo(1 / 6, 12);
    expect(pairwisePrecisionRecall(c)).toEqual({ precision: 0.5, recall: 0.5 });
  });

  it('handles a wrong merge, label permutations and the degenerate cases as sklearn does', () => {
    // The clusterer merged two meanings {0,1} and {2,3}: automatic one class, person two.
    const merged = pairCounts([0, 0, 0, 0], [0, 0, 1, 1]);
    // tp = 1 + 1 = 2, same in auto C(4,2) = 6 → fp = 4, fn = 0, tn = 0
    expect(merged).toEqual({ tp: 2, fp: 4, fn: 0, tn: 0 });
    // ARI = 2(2·0 − 0·4)/((2+0)(0+0) + (2+4)(4+0)) = 0; precision 2/6, recall 1
    expect(adjustedRandIndex([0, 0, 0, 0], [0, 0, 1, 1])).toBe(0);
    expect(pairwisePrecisionRecall(merged)).toEqual({ precision: 1 / 3, recall: 1 });
    expect(adjustedRandIndex([5, 5, 9, 9, 1], [0, 0, 1, 1, 2])).toBe(1);
    expect(adjustedRandIndex([0], [0])).toBe(1);
    expect(adjustedRandIndex([0, 1, 2], [0, 1, 2])).toBe(1);
    // sklearn: adjusted_rand_score([0,0,1,1],[0,1,0,1]) = -0.5
    // pairs: tp 0, same auto 2 → fp 2, same person 2 → fn 2, tn 6 − 4 = 2; 2(0 − 4)/(2·4 + 2·4) = −0.5
    expect(adjustedRandIndex([0, 0, 1, 1], [0, 1, 0, 1])).toBeCloseTo(-0.5, 12);
    expect([...labelsOfClasses([[2, 0], [1]], 3)]).toEqual([0, 1, 0]);
  });

  it('pools over questions with bootstrap intervals', () => {
    const perQuestion = [pairCounts([0, 0, 0, 0], [0, 0, 1, 1]), pairCounts([0, 0, 1], [0, 0, 1]), pairCounts([0, 1, 1], [0, 1, 1])];
    const a = partitionAgreement(perQuestion, { B: 200, seed: 1 });
    // mean ARI (0 + 1 + 1)/3; pooled tp 2+1+1 = 4, fp 4 → precision 4/8; fn 0 → recall 1
    expect(a.ari[0]).toBeCloseTo(2 / 3, 12);
    expect(a.precision[0]).toBeCloseTo(0.5, 12);
    expect(a.recall[0]).toBe(1);
    expect(a.differing).toBe(1);
    expect(a.ari[1]).toBeLessThanOrEqual(a.ari[0]);
    expect(a.ari[2]).toBeGreaterThanOrEqual(a.ari[0]);
  });
});

describe("Krippendorff's α (nominal)", () => {
  it("gives Krippendorff's own worked example: 4 coders, 12 units, missing values, α = 0.743", () => {
    // Krippendorff (2011), "Computing Krippendorff's alpha-reliability", nominal example (values 1..5 coded 0..4).
    const coders = [
      [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
      [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
    ];
    const units = Array.from({ length: 12 }, (_, u) => coders.map((c) => c[u]).filter((v): v is number => v !== null).map((v) => v - 1));
    // Coincidences (the paper's table): n_c = 9, 13, 10, 5, 3, n = 40; off-diagonal Σ o = 8
    // (a unit adds its disagreeing ordered pairs / (m_u − 1): unit 2 (2,2,3,2) 6/3 = 2, unit 6
    // (1,2,3,4) 12/3 = 4, unit 8 (1,1,2,1) 6/3 = 2; unit 12 has one value and is left out).
    // Σ_{c≠k} n_c n_k = 40² − (81 + 169 + 100 + 25 + 9) = 1216 → α = 1 − 39·8/1216 = 0.74342
    expect(krippendorffAlphaNominal(units, 5)).toBeCloseTo(1 - (39 * 8) / 1216, 12);
    expect(krippendorffAlphaNominal(units, 5)).toBeCloseTo(0.743, 3);
  });

  it('is 1 on perfect agreement, NaN with one category, and bootstraps over groups', () => {
    expect(krippendorffAlphaNominal([[0, 0], [1, 1, 1], [2]], 3)).toBe(1);
    expect(krippendorffAlphaNominal([[0, 0], [0, 0]], 3)).toBeNaN();
    // Two coders, 4 units: (0,0) (1,1) (0,1) (1,1): o00 = 2, o11 = 4, o01 = o10 = 1; n0 = 3, n1 = 5, n = 8
    // α = 1 − 7·2/(2·3·5) = 1 − 14/30 = 0.5333…
    expect(krippendorffAlphaNominal([[0, 0], [1, 1], [0, 1], [1, 1]], 2)).toBeCloseTo(1 - 14 / 30, 12);
    const groups = [[[0, 0], [1, 1]], [[0, 1], [1, 1]], [[0, 0]], [[1, 1], [1, 0]]].map((g) => coincidences(g, 2));
    const a = alphaWithInterval(groups, 2, { B: 300, seed: 2 });
    expect(a.alpha[0]).toBeCloseTo(krippendorffAlphaNominal([[0, 0], [1, 1], [0, 1], [1, 1], [0, 0], [1, 1], [1, 0]], 2), 12);
    expect(a.alpha[1]).toBeLessThan(a.alpha[0]);
  });
});

describe('the audit plan', () => {
  it('sizes the sample for a stated half-width', () => {
    // z² · 0.25 / 0.05² = 3.8415 · 100 = 384.1 → 385; with N = 1000: 384.15/(1 + 383.15/1000) = 277.7 → 278
    expect(agreementSampleSize({ halfWidth: 0.05 })).toBe(385);
    expect(agreementSampleSize({ halfWidth: 0.05, population: 1000 })).toBe(278);
    expect(agreementSampleSize({ halfWidth: 0.05, population: 20 })).toBeLessThanOrEqual(20);
    // p_e from counts 60/30/10: 0.36 + 0.09 + 0.01 = 0.46
    expect(chanceAgreement([60, 30, 10])).toBeCloseTo(0.46, 12);
    // κ: z² · 0.9·0.1 / ((1 − 0.46)² · 0.1²) = 3.8415 · 0.09 / (0.2916 · 0.01) = 118.56 → 119
    expect(kappaSampleSize({ halfWidth: 0.1, chanceAgreement: 0.46 })).toBe(119);
    expect(kappaSampleSize({ halfWidth: 0.1, chanceAgreement: 1 })).toBe(Infinity);
    expect(() => agreementSampleSize({ halfWidth: 0 })).toThrow(/half-width/);
  });
});

describe('the ECE shift (difference estimator)', () => {
  it('is exact with a collapsed interval when every question is audited', () => {
    const conf = [0.95, 0.85, 0.55, 0.25, 0.75];
    const y = [1, 0, 1, 0, 1];
    const corrected = { conf: [0.95, 0.45, 0.55, 0.25, 0.75], y: [1, 0, 0, 0, 1] };
    const s = eceShift({ conf, y, audited: [0, 1, 2, 3, 4], correctedConf: corrected.conf, correctedY: corrected.y }, { B: 100 });
    expect(s.ece).toBeCloseTo(eceEqualWidth(conf, y, 10), 12);
    expect(s.corrected).toBeCloseTo(eceEqualWidth(corrected.conf, corrected.y, 10), 12);
    expect(s.interval[0]).toBeCloseTo(s.estimate, 12);
    expect(s.interval[1]).toBeCloseTo(s.estimate, 12);
  });

  it('carries a sample’s differences over to the set by hand', () => {
    // 10 questions, all at c = 0.85 (bin 8) with y = 1: D_8 = 10·0.15 = 1.5, ECE = 0.15.
    const conf = new Array(10).fill(0.85);
    const y = new Array(10).fill(1);
    // Audited 2 of 10 (weight 5): q0 the person grades wrong (δ_8 = −0.15 + (0 − 0.85) = −1.0), q1 unchanged.
    const s = eceShift({ conf, y, audited: [0, 1], correctedConf: [0.85, 0.85], correctedY: [0, 1] }, { B: 200, seed: 4 });
    // D̂'_8 = 1.5 + 5·(−1.0) = −3.5 → ECE' = 3.5/10 = 0.35; shift = 0.2
    expect(s.corrected).toBeCloseTo(0.35, 12);
    expect(s.estimate).toBeCloseTo(0.2, 12);
    expect(s.interval[0]).toBeLessThanOrEqual(s.estimate);
    expect(s.interval[1]).toBeGreaterThanOrEqual(s.estimate);
    // Stratified: the same two audited, but each the only audited question of its stratum of 5 → NaN interval.
    const strata = [0, 1, 0, 0, 0, 0, 1, 1, 1, 1];
    const t = eceShift({ conf, y, audited: [0, 1], correctedConf: [0.85, 0.85], correctedY: [0, 1], strata }, { B: 200 });
    expect(t.estimate).toBeCloseTo(0.2, 12); // weights 5 and 5 again
    expect(t.interval).toEqual([NaN, NaN]);
  });
});
