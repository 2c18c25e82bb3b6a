import { describe, expect, it } from 'vitest';
import { heldOutSplit } from '../../../src/core/abstention';
import { eceEqualWidth } from '../../../src/core/ece';
import { eceInference } from '../../../src/core/ece-inference';
import { fitIsotonic, predictIsotonic } from '../../../src/core/isotonic';
import { fitPlatt, predictPlatt } from '../../../src/core/platt';
import { crossFittedRecalibration } from '../../../src/core/recalibration';
import { defaultRng } from '../../../src/core/rng';
import reference from '../../fixtures/uncertainty/recalibration-reference.json';

describe('crossFittedRecalibration', () => {
  it('predicts each half with the map fitted on the other (a hand-sized case)', () => {
    const score = [0.1, 0.9, 0.4, 0.6, 0.3, 0.8, 0.2, 0.7];
    const y = [0, 1, 0, 1, 1, 1, 0, 0];
    const r = crossFittedRecalibration(score, y, { method: 'isotonic', seed: 3 });
    const { selection, evaluation } = heldOutSplit(score.length, 3);
    expect(r.halves[0]).toEqual(selection);
    expect(r.halves[1]).toEqual(evaluation);
    const mapA = fitIsotonic(score, y, selection);
    const mapB = fitIsotonic(score, y, evaluation);
    for (const i of evaluation) expect(r.confidence[i]).toBe(predictIsotonic(mapA, score[i]));
    for (const i of selection) expect(r.confidence[i]).toBe(predictIsotonic(mapB, score[i]));
    const p = crossFittedRecalibration(score, y, { method: 'platt', seed: 3 });
    const fitA = fitPlatt(score, y, selection);
    for (const i of evaluation) expect(p.confidence[i]).toBe(predictPlatt(fitA, score[i]));
  });

  it('never lets a question\u2019s outcome reach its own confidence', () => {
    const rng = defaultRng(11);
    const n = 40;
    const score = Array.from({ length: n }, () => rng.random());
    const y: number[] = score.map((s) => (rng.random() < s ? 1 : 0));
    for (const method of ['isotonic', 'platt'] as const) {
      const base = crossFittedRecalibration(score, y, { method, seed: 5 });
      // Flip one question's outcome: its own confidence stays, only the other half's may move.
      for (const i of [0, 17, 39]) {
        const flipped = y.slice();
        flipped[i] = 1 - flipped[i];
        const r = crossFittedRecalibration(score, flipped, { method, seed: 5 });
        expect(r.confidence[i]).toBe(base.confidence[i]);
        const ownHalf = base.halves[0].includes(i) ? base.halves[0] : base.halves[1];
        for (const j of ownHalf) expect(r.confidence[j]).toBe(base.confidence[j]);
      }
    }
  });

  it('gives NaN confidences when a half would be empty or a score is not finite, and refuses non-0/1 outcomes', () => {
    expect(Array.from(crossFittedRecalibration([0.5], [1], { method: 'isotonic', seed: 0 }).confidence)).toEqual([NaN]);
    const r = crossFittedRecalibration([0.5, Infinity, 0.2], [1, 0, 1], { method: 'platt', seed: 0 });
    expect(Array.from(r.confidence).every(Number.isNaN)).toBe(true);
    expect(r.maps).toBeNull();
    expect(() => crossFittedRecalibration([0.1, 0.2], [1, 0.5], { method: 'isotonic', seed: 0 })).toThrow(RangeError);
  });

  for (const c of reference.crossFitted.cases) {
    it(`matches the Python cross-fitting (numpy's permutation, scipy's fits) for ${c.name}`, () => {
      const r = crossFittedRecalibration(reference.crossFitted.score, reference.crossFitted.y, { method: c.method as 'isotonic' | 'platt', seed: c.seed });
      // Isotonic: 1e-9 as its own reference; Platt: 1e-10 on the probabilities as platt.test.ts.
      const tol = c.method === 'isotonic' ? 1e-9 : 1e-10;
      c.confidence.forEach((v, i) => expect(Math.abs(r.confidence[i] - v)).toBeLessThan(tol));
    });
  }
});

describe('cross-fitted confidences feed the headline ECE interval', () => {
  it('eceInference on recalibrated confidences: an overconfident score made calibrated', () => {
    // 1000 questions; the truth P(correct) = σ(u), the score reports σ(3u): overconfident.
    const rng = defaultRng(29);
    const n = 1000;
    const score = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const u = 2 * (rng.random() - 0.5) * 3;
      score[i] = 1 / (1 + Math.exp(-3 * u));
      y[i] = rng.random() < 1 / (1 + Math.exp(-u)) ? 1 : 0;
    }
    const raw = eceInference(score, y, { draws: 400 });
    for (const method of ['isotonic', 'platt'] as const) {
      const { confidence } = crossFittedRecalibration(score, y, { method, seed: 0 });
      const after = eceInference(confidence, y, { draws: 400 });
      expect(after.ece).toBe(eceEqualWidth(confidence, y, 10));
      expect(after.interval[0]).toBeLessThanOrEqual(after.interval[1]);
      // Raw: far off (the overconfidence is large); recalibrated: most of it gone, and the intervals apart.
      expect(raw.ece).toBeGreaterThan(0.1);
      expect(after.ece).toBeLessThan(raw.ece / 2);
      expect(after.interval[1]).toBeLessThan(raw.interval[0]);
    }
  });
});
