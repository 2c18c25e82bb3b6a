import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkQuestionSamples, classSizes, estimateQuestion, heldOutPermutations, margin, modalClass,
  sem1, sem2HeldOut, sem2Trace, semanticEntropy, standardizedMargin, verbalizedMean,
} from '../../../src/core/estimators';
import { pairwiseMean } from '../../../src/core/pairwise';
import { JENSEN_THRESHOLD, LAMBDA_STAR, meanClassCount, regimeOf } from '../../../src/core/regimes';
import { defaultRng } from '../../../src/core/rng';

const vectors = JSON.parse(
  readFileSync(new URL('../../fixtures/test-vectors.json', import.meta.url), 'utf8'),
);

interface SemCase {
  assignments: number[]; cluster_sizes: number[]; sem1: number; sem2: number; margin: number;
  splits: Array<{ perm_head: number[]; z_S: number; hits: number; m: number; c_r: number }>;
}

/** Sem2 written straight from the spec text, independent of the optimised loop. */
function sem2BySpec(a: number[], K: number, R = 10, seed = 0, selection = Math.floor(a.length / 2)): number {
  const rng = defaultRng(seed);
  const c: number[] = [];
  for (let r = 0; r < R; r++) {
    const perm = Array.from(rng.permutation(a.length));
    const N = perm.slice(0, selection);
    const E = perm.slice(selection);
    const counts = Array<number>(K).fill(0);
    for (const i of N) counts[a[i]]++;
    const z = counts.indexOf(Math.max(...counts));
    c.push(E.filter((i) => a[i] === z).length / E.length);
  }
  return pairwiseMean(c);
}

const questionArb = fc.integer({ min: 1, max: 7 }).chain((K) =>
  fc.record({ K: fc.constant(K), a: fc.array(fc.integer({ min: 0, max: K - 1 }), { minLength: 1, maxLength: 90 }) }));

describe('sem_cases of test-vectors.json, bit for bit', () => {
  for (const [name, c] of Object.entries(vectors.sem_cases as Record<string, SemCase>)) {
    it(name, () => {
      const K = c.cluster_sizes.length;
      const n = c.assignments.length;
      const e = estimateQuestion({ assignments: c.assignments, nClasses: K });
      expect(e.sizes).toEqual(c.cluster_sizes);
      expect(e.sem1).toBe(c.sem1);
      expect(e.sem2).toBe(c.sem2);
      expect(e.margin).toBe(c.margin);
      const { sem2, splits } = sem2Trace(c.assignments, K);
      expect(sem2).toBe(c.sem2);
      const perms = heldOutPermutations(n);
      c.splits.forEach((s, r) => {
        expect(Array.from(perms.subarray(r * n, r * n + s.perm_head.length))).toEqual(s.perm_head);
        expect(splits[r]).toEqual({ z: s.z_S, hits: s.hits, m: s.m, c: s.c_r });
      });
    });
  }
});

describe('class sizes and modal class', () => {
  it('counts samples per listed class, keeping empty classes', () => {
    expect(classSizes([2, 0, 2, 2], 4)).toEqual([1, 0, 3, 0]);
    expect(classSizes([], 3)).toEqual([0, 0, 0]);
  });

  it('rejects class indices outside [0, K), naming the sample', () => {
    expect(() => classSizes([0, 3], 3)).toThrow(/sample 1: class 3/);
    expect(() => classSizes([0, 1.5], 3)).toThrow(/sample 1/);
    expect(checkQuestionSamples({ assignments: [0, -1], nClasses: 2 })).toMatch(/sample 1: class -1/);
    expect(checkQuestionSamples({ assignments: [0, 1], nClasses: 2 })).toBeNull();
    expect(checkQuestionSamples({ assignments: [], nClasses: -1 })).toMatch(/nClasses/);
  });

  it('modal class: lowest index wins ties; an empty class never wins; −1 without samples', () => {
    expect(modalClass([3, 5, 5])).toBe(1);
    expect(modalClass([0, 2, 2, 1])).toBe(1);
    expect(modalClass([4])).toBe(0);
    expect(modalClass([0, 0])).toBe(-1);
    expect(modalClass([])).toBe(-1);
  });
});

describe('Sem1', () => {
  it('is max(sizes)/n, 1 for one class, NaN without samples', () => {
    expect(sem1([21, 16, 11, 2])).toBe(21 / 50);
    expect(sem1([0, 7, 0])).toBe(1);
    expect(sem1([0, 0])).toBeNaN();
  });
});

describe('Sem2 (held-out)', () => {
  it('n = 1: empty selection block, mode class 0, so Sem2 is 1 in class 0 and 0 elsewhere', () => {
    expect(sem2HeldOut([0], 2)).toBe(1);
    expect(sem2HeldOut([1], 2)).toBe(0);
    expect(sem2Trace([1], 2).splits[0]).toEqual({ z: 0, hits: 0, m: 1, c: 0 });
  });

  it('odd n: the evaluation block gets the extra sample', () => {
    const { splits } = sem2Trace([0, 1, 0, 1, 0, 0, 1], 2);
    for (const s of splits) expect(s.m).toBe(4);
  });

  it('one non-empty class gives 1, whatever the empty classes around it', () => {
    expect(sem2HeldOut(Array(13).fill(2), 4)).toBe(1);
  });

  it('n = 0 gives NaN, not an error', () => {
    expect(sem2HeldOut([], 3)).toBeNaN();
  });

  it('resets the generator per question: same n, same splits, same value', () => {
    const a = [0, 1, 1, 0, 2, 1, 0, 0, 1, 2, 1];
    expect(sem2HeldOut(a, 3)).toBe(sem2HeldOut(a, 3));
    expect(heldOutPermutations(11)).toBe(heldOutPermutations(11)); // cached, computed once per n
  });

  it('options: R, seed and selection size follow the spec procedure', () => {
    const a = [0, 1, 1, 0, 2, 1, 0, 0, 1, 2, 1, 1, 0, 2, 2, 0, 1];
    expect(sem2HeldOut(a, 3, { R: 3 })).toBe(sem2BySpec(a, 3, 3));
    expect(sem2HeldOut(a, 3, { seed: 42 })).toBe(sem2BySpec(a, 3, 10, 42));
    expect(sem2HeldOut(a, 3, { R: 25, selectionSize: (n) => Math.floor(n / 3) })).toBe(sem2BySpec(a, 3, 25, 0, 5));
    // A selection block that would leave nothing to evaluate is clamped to n − 1.
    expect(sem2Trace(a, 3, { selectionSize: (n) => n }).splits[0].m).toBe(1);
  });

  it('rejects a meaningless R or selection size', () => {
    expect(() => sem2HeldOut([0, 1], 2, { R: 0 })).toThrow(/R must be/);
    expect(() => sem2HeldOut([0, 1], 2, { selectionSize: () => NaN })).toThrow(/selection size/);
  });

  it('equals the spec procedure on random questions (fast-check)', () => {
    fc.assert(fc.property(questionArb, ({ K, a }) => {
      expect(sem2HeldOut(a, K)).toBe(sem2BySpec(a, K));
    }), { numRuns: 200 });
  });
});

describe('verbalized mean', () => {
  it('counts null, missing and NaN as 1.0 and clamps to [0, 1]', () => {
    expect(verbalizedMean([null, 0.3, Number.NaN, 1.7, -0.2, undefined])).toBe((((((1 + 0.3) + 1) + 1) + 0) + 1) / 6);
  });

  it('sums pairwise like np.mean: ten times 0.1 is 0.1, not the running sum’s 0.09999999999999999', () => {
    const running = Array(10).fill(0.1).reduce((s: number, x: number) => s + x, 0) / 10;
    expect(running).not.toBe(0.1);
    expect(verbalizedMean(Array(10).fill(0.1))).toBe(0.1);
  });

  it('an empty list is NaN; a question without any verbalized array is NaN (not collected)', () => {
    expect(verbalizedMean([])).toBeNaN();
    expect(estimateQuestion({ assignments: [0, 0], nClasses: 1 }).verbalized).toBeNaN();
    expect(estimateQuestion({ assignments: [0, 0], nClasses: 1, verbalized: [null, null] }).verbalized).toBe(1);
  });
});

describe('margin, standardized margin and entropy', () => {
  it('margin is (largest − second)/n; 0 on a tie; 1 with one non-empty class; NaN without samples', () => {
    expect(margin([21, 16, 11, 2])).toBe((21 - 16) / 50);
    expect(margin([20, 0, 20, 10])).toBe(0);
    expect(margin([0, 9, 0])).toBe(1);
    expect(margin([0, 0])).toBeNaN();
    expect(standardizedMargin(0.1, 50)).toBe(Math.sqrt(50) * 0.1);
  });

  it('entropy is ln K for K equal classes, 0 for one class, NaN without samples', () => {
    expect(semanticEntropy([5, 5, 0, 5, 5])).toBeCloseTo(Math.log(4), 14);
    expect(semanticEntropy([0, 12])).toBe(0);
    expect(semanticEntropy([0])).toBeNaN();
  });
});

describe('estimateQuestion', () => {
  it('no samples: NaN estimates, modal −1, no throw', () => {
    const e = estimateQuestion({ assignments: [], nClasses: 2, verbalized: [] });
    expect(e).toMatchObject({ n: 0, sizes: [0, 0], modal: -1, nonEmptyClasses: 0 });
    for (const k of ['sem1', 'sem2', 'verbalized', 'margin', 'stdMargin', 'entropy'] as const) expect(e[k]).toBeNaN();
  });

  it('one sample', () => {
    const e = estimateQuestion({ assignments: [0], nClasses: 1, verbalized: [0.4] });
    expect(e).toMatchObject({ n: 1, sizes: [1], modal: 0, sem1: 1, sem2: 1, verbalized: 0.4, margin: 1, stdMargin: 1, entropy: 0, nonEmptyClasses: 1 });
  });

  it('accepts typed arrays', () => {
    const a = Int32Array.from([0, 1, 1, 2, 1, 0, 1]);
    expect(estimateQuestion({ assignments: a, nClasses: 3 })).toEqual(estimateQuestion({ assignments: Array.from(a), nClasses: 3 }));
  });
});

describe('invariants (fast-check)', () => {
  it('Sem1 in (0, 1] and ≥ 1/K_nonempty; Sem2 in [0, 1]; margin in [0, 1]; 0 ≤ H ≤ ln K_nonempty', () => {
    fc.assert(fc.property(questionArb, ({ K, a }) => {
      const e = estimateQuestion({ assignments: a, nClasses: K });
      expect(e.sem1).toBeGreaterThan(0);
      expect(e.sem1).toBeLessThanOrEqual(1);
      expect(e.sem1).toBeGreaterThanOrEqual(1 / e.nonEmptyClasses);
      expect(e.sem2).toBeGreaterThanOrEqual(0);
      expect(e.sem2).toBeLessThanOrEqual(1);
      expect(e.margin).toBeGreaterThanOrEqual(0);
      expect(e.margin).toBeLessThanOrEqual(1);
      expect(e.entropy).toBeGreaterThanOrEqual(0);
      expect(e.entropy).toBeLessThanOrEqual(Math.log(e.nonEmptyClasses) + 1e-12);
      expect(e.sizes.reduce((s, x) => s + x, 0)).toBe(a.length);
      expect(e.sizes[e.modal]).toBe(Math.max(...e.sizes));
    }), { numRuns: 300 });
  });
});

describe('regimes', () => {
  /** Standard normal CDF by its Taylor series, accurate to ~1e-15 for |x| < 3: enough to check a root. */
  const Phi = (x: number): number => {
    // Φ(x) = 1/2 + φ(x)·Σ x^(2k+1)/(1·3·…·(2k+1))
    let term = x;
    let sum = x;
    for (let k = 1; k < 200; k++) {
      term *= (x * x) / (2 * k + 1);
      sum += term;
    }
    return 0.5 + sum * Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
  };
  const phi = (x: number) => Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
  const f = (l: number) => phi(2 * l) - 4 * l * Phi(-2 * l);

  it('λ* is the root of φ(2λ) − 4λΦ(−2λ), and the threshold is 0.612 ≈ 2λ*', () => {
    expect(Math.abs(f(LAMBDA_STAR))).toBeLessThan(1e-6);
    expect(f(LAMBDA_STAR - 1e-4) * f(LAMBDA_STAR + 1e-4)).toBeLessThan(0);
    expect(JENSEN_THRESHOLD).toBeCloseTo(2 * LAMBDA_STAR, 5);
  });

  it('classifies by √n·Δ and Δ against √(ln K̄ / n)', () => {
    expect(regimeOf(0.6119, 0.0865, 50, 3)).toBe('jensen');
    expect(regimeOf(0.612, 0.0866, 50, 3)).toBe('low-margin');
    const edge = Math.sqrt(Math.log(3) / 50);
    expect(regimeOf(Math.sqrt(50) * edge, edge, 50, 3)).toBe('large-margin');
    expect(regimeOf(1, 0.9 * edge, 50, 3)).toBe('low-margin');
    expect(regimeOf(Number.NaN, Number.NaN, 0, 3)).toBeNull();
  });

  it('K̄ is the mean number of non-empty classes over questions with samples', () => {
    const qs = [
      estimateQuestion({ assignments: [0, 1, 1, 0, 1], nClasses: 2 }),
      estimateQuestion({ assignments: [0, 0, 0, 2], nClasses: 3 }),
      estimateQuestion({ assignments: [], nClasses: 2 }),
    ];
    expect(meanClassCount(qs)).toBe(2);
    // A question without samples has no regime (the score stage's K̄ is this one, over every question).
    expect(regimeOf(qs[2].stdMargin, qs[2].margin, qs[2].n, meanClassCount(qs))).toBeNull();
  });
});
