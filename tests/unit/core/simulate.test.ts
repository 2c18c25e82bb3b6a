import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eceEqualWidth } from '../../../src/core/calibration';
import { estimateQuestion } from '../../../src/core/estimators';
import { defaultRng } from '../../../src/core/rng';
import {
  asQuestionSamples, checkQuestionSpec, oracleEce, simulateQuestion, simulateQuestions, summarizeSimulation, topTwoMargin,
  type SimulatedQuestion,
} from '../../../src/core/simulate';
import {
  dirichletPi, gammaDraw, MARGIN_RANGES, minTopTwoMass, questionSet, simulateSet, twoLeadingClasses,
} from '../../../src/core/simulate-families';

function meanAndSe(xs: number[]): { mean: number; se: number } {
  const n = xs.length;
  const mean = xs.reduce((s, x) => s + x, 0) / n;
  const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
  return { mean, se: Math.sqrt(variance / n) };
}

/** Sem1 and Sem2 of M independent questions with distribution pi and n samples each. */
function estimatorsOn(pi: number[], n: number, M: number, seed: number) {
  const qs = simulateQuestions(Array.from({ length: M }, () => ({ pi, correct: [0] })), n, seed);
  const est = qs.map((q) => estimateQuestion(asQuestionSamples(q)));
  return { sem1: meanAndSe(est.map((e) => e.sem1)), sem2: meanAndSe(est.map((e) => e.sem2)) };
}

// Differences are asserted beyond Z standard errors: a correct implementation fails such a
// check with probability below 1e-6, and the seeds are fixed, so the test is deterministic.
const Z = 5;

describe('the theory on a low-margin question, π = (0.4, 0.35, 0.25), c* = 0.4', () => {
  const pi = [0.4, 0.35, 0.25];
  const cStar = 0.4;
  const small = estimatorsOn(pi, 20, 3000, 1);
  const large = estimatorsOn(pi, 400, 3000, 2);

  it('Sem1 overshoots c* (winner’s curse) and Sem2 undershoots it (selection error)', () => {
    expect(small.sem1.mean - cStar).toBeGreaterThan(Z * small.sem1.se);
    expect(cStar - small.sem2.mean).toBeGreaterThan(Z * small.sem2.se);
  });

  it('both approach c* as n grows', () => {
    const gap = (a: { mean: number; se: number }, b: { mean: number; se: number }) =>
      Math.abs(a.mean - cStar) - Math.abs(b.mean - cStar) - Z * Math.hypot(a.se, b.se);
    expect(gap(small.sem1, large.sem1)).toBeGreaterThan(0);
    expect(gap(small.sem2, large.sem2)).toBeGreaterThan(0);
    // The order persists at n = 400: Sem2 < c* < Sem1.
    expect(large.sem1.mean - cStar).toBeGreaterThan(Z * large.sem1.se);
    expect(cStar - large.sem2.mean).toBeGreaterThan(Z * large.sem2.se);
  });
});

describe('simulateQuestion', () => {
  it('sample frequencies estimate π (within standard errors)', () => {
    const pi = [0.5, 0, 0.3, 0.2];
    const q = simulateQuestion({ pi, correct: [2] }, 20000, defaultRng(3));
    expect(q.sizes[1]).toBe(0); // a class with no mass is never drawn
    pi.forEach((p, k) => {
      const se = Math.sqrt((p * (1 - p)) / q.n);
      expect(Math.abs(q.sizes[k] / q.n - p)).toBeLessThanOrEqual(Z * se);
    });
  });

  it('Y is the correctness of the modal class of the samples; c* = max π; yStar of argmax π', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 6 }), fc.nat(), fc.integer({ min: 0, max: 30 }), (weights, seed, n) => {
      fc.pre(weights.some((w) => w > 0));
      const sum = weights.reduce((s, w) => s + w, 0);
      const pi = weights.map((w) => w / sum);
      pi[pi.length - 1] = 1 - pi.slice(0, -1).reduce((s, x) => s + x, 0);
      fc.pre(pi[pi.length - 1] >= 0);
      const q = simulateQuestion({ pi, correct: [0] }, n, defaultRng(seed));
      const e = estimateQuestion(asQuestionSamples(q));
      expect(q.modal).toBe(e.modal);
      expect(q.y).toBe(e.modal === 0 ? 1 : 0);
      expect(q.cStar).toBe(Math.max(...pi));
      expect(q.yStar).toBe(pi.indexOf(Math.max(...pi)) === 0 ? 1 : 0);
      for (const k of q.assignments) expect(pi[k]).toBeGreaterThan(0);
    }), { numRuns: 200 });
  });

  it('the same seed gives the same samples', () => {
    const specs = questionSet({ count: 5, difficulty: 'hard', seed: 4 });
    const a = simulateQuestions(specs, 30, 9);
    const b = simulateQuestions(specs, 30, 9);
    expect(a.map((q) => Array.from(q.assignments))).toEqual(b.map((q) => Array.from(q.assignments)));
  });

  it('rejects a π that is not a distribution and a correct class that does not exist', () => {
    expect(checkQuestionSpec({ pi: [0.5, 0.4], correct: [0] })).toMatch(/sums to/);
    expect(checkQuestionSpec({ pi: [1.2, -0.2], correct: [0] })).toMatch(/π\[1\]/);
    expect(checkQuestionSpec({ pi: [], correct: [] })).toMatch(/empty/);
    expect(checkQuestionSpec({ pi: [1], correct: [1] })).toMatch(/correct class 1/);
    expect(() => simulateQuestion({ pi: [1], correct: [0] }, -1, defaultRng(0))).toThrow(/n must be/);
  });

  it('n = 0 gives an empty question: no modal class, Y = 0', () => {
    const q = simulateQuestion({ pi: [1], correct: [0] }, 0, defaultRng(0));
    expect(q).toMatchObject({ n: 0, modal: -1, y: 0, cStar: 1 });
  });
});

describe('question families', () => {
  it('two-leading π has the requested margin, sums to 1 and keeps the runner-up ahead of the rest', () => {
    fc.assert(fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 2, max: 8 }), (margin, t, K) => {
      const lo = minTopTwoMass(margin, K);
      fc.pre(lo <= 1);
      const pi = twoLeadingClasses(margin, lo + (1 - lo) * t, K);
      expect(pi).toHaveLength(K);
      expect(Math.abs(pi.reduce((s, x) => s + x, 0) - 1)).toBeLessThan(1e-12);
      expect(Math.abs(topTwoMargin(pi) - margin)).toBeLessThan(1e-12);
      for (const p of pi.slice(2)) expect(p).toBeLessThanOrEqual(pi[1] + 1e-12);
    }));
    expect(() => twoLeadingClasses(0.1, 0.3, 4)).toThrow(/top-two mass/);
  });

  it('difficulty presets give margins in their ranges', () => {
    for (const d of ['easy', 'medium', 'hard'] as const) {
      const [lo, hi] = MARGIN_RANGES[d];
      for (const s of questionSet({ count: 100, difficulty: d, seed: 5 })) {
        const m = topTwoMargin(s.pi);
        expect(m).toBeGreaterThanOrEqual(lo - 1e-12);
        expect(m).toBeLessThanOrEqual(hi + 1e-12);
        expect(checkQuestionSpec(s)).toBeNull();
      }
    }
  });

  it('Gamma draws have mean equal to the shape; Dirichlet π is a distribution', () => {
    const rng = defaultRng(6);
    for (const shape of [0.3, 1, 4]) {
      const { mean, se } = meanAndSe(Array.from({ length: 20000 }, () => gammaDraw(shape, rng)));
      expect(Math.abs(mean - shape)).toBeLessThan(Z * se);
    }
    const pi = dirichletPi(0.5, 5, rng);
    expect(checkQuestionSpec({ pi, correct: [0] })).toBeNull();
    expect(questionSet({ count: 20, family: 'dirichlet', seed: 1 }).every((s) => checkQuestionSpec(s) === null)).toBe(true);
  });

  it('the accuracy knob sets how often the favourite answer is correct', () => {
    const specs = questionSet({ count: 4000, difficulty: 'easy', correctness: { accuracy: 0.3 }, seed: 8 });
    const right = specs.map((s) => (s.correct[0] === s.pi.indexOf(Math.max(...s.pi)) ? 1 : 0));
    const { mean, se } = meanAndSe(right);
    expect(Math.abs(mean - 0.3)).toBeLessThan(Z * se);
  });
});

describe('oracle ECE*', () => {
  it('is the paper ECE of c* against a* = Y(z*), the population mode\'s correctness', () => {
    const qs = simulateSet({ count: 300, n: 20, difficulty: 'hard', seed: 2 });
    expect(oracleEce(qs)).toBe(eceEqualWidth(qs.map((q) => q.cStar), qs.map((q) => q.yStar)));
    // On hard questions the sample mode often differs from the population mode, so scoring c*
    // against the deployed Y would be a different number.
    expect(qs.some((q) => q.y !== q.yStar)).toBe(true);
  });

  it('is only sampling noise for a calibrated, easy set, and large when accuracy is forced low', () => {
    const N = 4000;
    // Margins ≥ 0.5 and n = 100: the sample mode is the population mode (a flip has probability
    // below 1e-6), so Y ~ Bernoulli(c*) and each bin's |accuracy − confidence| is noise of
    // standard error ≤ 0.5/√n_b. Summed with weights n_b/N that is ≤ 0.5·√(10/N) (Cauchy–Schwarz).
    const calibrated: SimulatedQuestion[] = simulateSet({ count: N, n: 100, difficulty: 'easy', seed: 3 });
    expect(oracleEce(calibrated)).toBeLessThan(Z * 0.5 * Math.sqrt(10 / N));
    // With the favourite right 20% of the time, ECE ≥ |mean Y − mean c*| (triangle inequality).
    const wrong = summarizeSimulation(simulateSet({ count: N, n: 100, difficulty: 'easy', correctness: { accuracy: 0.2 }, seed: 3 }));
    expect(wrong.eceStar).toBeGreaterThan(wrong.meanCStar - 0.2 - Z * Math.sqrt((0.2 * 0.8) / N));
  });

  it('summarizes Sem1 and Sem2 beside the oracle with the same estimators and ECE', () => {
    const qs = simulateSet({ count: 500, n: 20, difficulty: 'hard', classes: 3, seed: 7 });
    const s = summarizeSimulation(qs);
    const est = qs.map((q) => estimateQuestion(asQuestionSamples(q)));
    const y = qs.map((q) => q.y);
    expect(s.questions).toBe(500);
    expect(s.eceSem1).toBe(eceEqualWidth(est.map((e) => e.sem1), y));
    expect(s.eceSem2).toBe(eceEqualWidth(est.map((e) => e.sem2), y));
    expect(s.eceStar).toBe(oracleEce(qs));
    expect(s.meanSem1).toBeGreaterThan(s.meanCStar); // the winner's curse shows even in a summary
  });
});
