import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accuracyRejectionCurve, auarc, predictionRejection, prr } from '../../../src/core/prediction-rejection';
import { aurc } from '../../../src/core/risk-coverage';
import reference from '../../fixtures/uncertainty/prr-reference.json';

describe('predictionRejection by hand', () => {
  it('follows LM-Polygraph on a small case without ties', () => {
    // Most confident first the outcomes are 1, 0, 1, 0. Heights after j = 0..3 rejections
    // (kept 4, 3, 2, 1): 2/4, 2/3, 1/2, 1/1. Area = (1/2 + 2/3 + 1/2 + 1)/4 = 2/3.
    // Oracle (P = 2): min(2, k)/k = 2/4, 2/3, 1, 1 → (1/2 + 2/3 + 1 + 1)/4 = 19/24. Random = 2/4.
    // PRR = (2/3 − 1/2)/(19/24 − 1/2) = (4/24)/(7/24) = 4/7.
    const conf = [0.9, 0.8, 0.6, 0.4];
    const y = [1, 0, 1, 0];
    const r = predictionRejection(conf, y);
    expect(r.steps).toBe(4);
    expect(r.area).toBeCloseTo(2 / 3, 15);
    expect(r.oracle).toBeCloseTo(19 / 24, 15);
    expect(r.random).toBe(0.5);
    expect(r.prr).toBeCloseTo(4 / 7, 14);
    // maxRejection 0.5: K = 2 heights. Area = (1/2 + 2/3)/2 = 7/12 = oracle's (1/2 + 2/3)/2: PRR 1.
    const half = predictionRejection(conf, y, { maxRejection: 0.5 });
    expect(half.steps).toBe(2);
    expect(half.area).toBeCloseTo(7 / 12, 15);
    expect(half.oracle).toBeCloseTo(7 / 12, 15);
    expect(half.prr).toBeCloseTo(1, 14);
  });

  it('averages a tie group over its orders', () => {
    // 0.9 (right), then 0.8 twice (one right, one wrong), then 0.5 (wrong).
    // Order A (right first): outcomes 1, 1, 0, 0 → heights kept 4..1: 1/2, 2/3, 1, 1 (sum 19/6).
    // Order B (wrong first): 1, 0, 1, 0 → 1/2, 2/3, 1/2, 1 (sum 16/6). Mean area = (35/12)/4 = 35/48.
    // Oracle 19/24 = 38/48, random 1/2 = 24/48: PRR = (35 − 24)/(38 − 24) = 11/14.
    const conf = [0.8, 0.9, 0.5, 0.8];
    const y = [1, 1, 0, 0];
    const r = predictionRejection(conf, y);
    expect(r.area).toBeCloseTo(35 / 48, 15);
    expect(r.prr).toBeCloseTo(11 / 14, 14);
    const curve = accuracyRejectionCurve(conf, y);
    expect(Array.from(curve.rejected)).toEqual([0, 0.25, 0.5, 0.75]);
    expect(curve.accuracy[0]).toBeCloseTo(1 / 2, 15);
    expect(curve.accuracy[1]).toBeCloseTo(2 / 3, 15);
    expect(curve.accuracy[2]).toBeCloseTo(3 / 4, 15); // the tie group half taken: (1 + 1/2)/2
    expect(curve.accuracy[3]).toBe(1);
  });

  it('is 1 for the oracle and negative for the reverse ranking', () => {
    const y = [1, 0, 0, 1, 1, 0, 1]; // P = 4 of N = 7
    expect(prr(y.map((v) => v + 0.1), y)).toBeCloseTo(1, 14);
    // conf = −y: the three wrong answers most confident. Heights for kept k = 7..1:
    // 4/7, 3/6, 2/5, 1/4, 0, 0, 0 → area = (4/7 + 1/2 + 2/5 + 1/4)/7.
    // Oracle: 4/7, 4/6, 4/5, 1, 1, 1, 1 → (4/7 + 2/3 + 4/5 + 4)/7. Random 4/7.
    const area = (4 / 7 + 1 / 2 + 2 / 5 + 1 / 4) / 7;
    const oracle = (4 / 7 + 2 / 3 + 4 / 5 + 4) / 7;
    const worst = predictionRejection(y.map((v) => -v), y);
    expect(worst.area).toBeCloseTo(area, 15);
    expect(worst.oracle).toBeCloseTo(oracle, 15);
    expect(worst.prr).toBeCloseTo((area - 4 / 7) / (oracle - 4 / 7), 14); // ≈ −1.118: PRR is not bounded by −1
  });

  it('is NaN where LM-Polygraph returns an unnormalised area or fails', () => {
    expect(prr([0.1, 0.5, 0.9], [1, 1, 1])).toBeNaN(); // oracle = random
    expect(prr([0.1, 0.5, 0.9], [0, 0, 0])).toBeNaN();
    expect(predictionRejection([0.1, 0.5, 0.9], [1, 0, 1], { maxRejection: 0.4 }).steps).toBe(1);
    expect(prr([0.1, 0.5, 0.9], [1, 0, 1], 0.4)).toBeNaN(); // K = 1: only the full set
    expect(predictionRejection([0.1, 0.5, 0.9], [1, 0, 1], { maxRejection: 0.3 }).area).toBeNaN(); // K = 0
    expect(prr([0.1, NaN, 0.9], [1, 0, 1])).toBeNaN();
    expect(prr([], [])).toBeNaN();
    expect(() => prr([0.1, 0.2], [1, 2])).toThrow(RangeError);
    expect(() => prr([0.1, 0.2], [1, 0], 0)).toThrow(RangeError);
    expect(() => prr([0.1, 0.2], [1, 0], 1.5)).toThrow(RangeError);
  });
});

describe('predictionRejection against LM-Polygraph (bench/reference/ranking_reference.py)', () => {
  for (const c of reference.cases) {
    for (const r of c.results) {
      it(`${c.name}, max_rejection ${r.maxRejection}`, () => {
        const ours = predictionRejection(c.conf, c.y, { maxRejection: r.maxRejection });
        expect(ours.steps).toBe(r.steps);
        expect(Math.abs(ours.area - r.area)).toBeLessThan(1e-9);
        expect(Math.abs(ours.oracle - r.oracle)).toBeLessThan(1e-9);
        expect(ours.random).toBe(r.randomExact);
        // LM-Polygraph's Monte Carlo random estimates the exact expectation.
        expect(Math.abs(r.randomMonteCarlo - r.randomExact)).toBeLessThan(4 * r.randomMonteCarloSe);
        // With LM-Polygraph's Monte Carlo random in the ratio, its normalised PRR exactly.
        const withMc = (ours.area - r.randomMonteCarlo) / (ours.oracle - r.randomMonteCarlo);
        expect(Math.abs(withMc - r.prrLmPolygraph)).toBeLessThan(1e-9);
        expect(ours.prr).toBeCloseTo((r.area - r.randomExact) / (r.oracle - r.randomExact), 9);
      });
    }
  }
  it('reads the reference at a stated commit', () => {
    expect(reference.lmPolygraph.commit).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('predictionRejection properties', () => {
  const rows = fc.array(fc.tuple(fc.integer({ min: 0, max: 8 }).map((k) => k / 8), fc.integer({ min: 0, max: 1 })), { minLength: 2, maxLength: 120 });

  it('depends on the order of the confidences only, not on the rows\u2019 order (ties averaged)', () => {
    fc.assert(fc.property(rows, fc.integer(), (r, seed) => {
      const conf = r.map(([c]) => c), y = r.map(([, v]) => v);
      const shuffled = r.map((row, i) => ({ row, key: Math.sin(seed + i * 12.9898) })).sort((a, b) => a.key - b.key).map((e) => e.row);
      const a = predictionRejection(conf, y);
      const b = predictionRejection(shuffled.map(([c]) => c), shuffled.map(([, v]) => v));
      const monotone = predictionRejection(conf.map((c) => Math.exp(3 * c) - 7), y);
      for (const other of [b, monotone]) {
        if (Number.isNaN(a.prr)) expect(other.prr).toBeNaN();
        else expect(other.prr).toBeCloseTo(a.prr, 12);
        expect(other.area).toBeCloseTo(a.area, 12);
      }
      // oracle ≥ area (no ranking beats ranking by Y) and AUARC = 1 − AURC = the area at maxRejection 1.
      expect(a.oracle).toBeGreaterThanOrEqual(a.area - 1e-12);
      expect(auarc(conf, y)).toBe(1 - aurc(conf, y));
      expect(auarc(conf, y)).toBeCloseTo(a.area, 14);
    }), { numRuns: 150 });
  });
});
