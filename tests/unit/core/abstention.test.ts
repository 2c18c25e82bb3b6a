import { describe, expect, it } from 'vitest';
import { abstention, abstentionSpread, chooseGuaranteedThreshold, chooseThreshold, heldOutSplit, selectiveCounts } from '../../../src/core/abstention';

/**
 * The hand-computed fixture. numpy: default_rng(0).permutation(12) = [9 2 7 4 5 11 0 3 6 10 8 1],
 * so the selection half is rows {9, 2, 7, 4, 5, 11} and the evaluation half {0, 3, 6, 10, 8, 1}.
 *
 * Selection half, most confident first: 0.95 ✓, 0.9 ✓, 0.8 ✗ and 0.8 ✓, 0.6 ✓, 0.4 ✗.
 *   t = 0.95: 0/1 = 0;  t = 0.9: 0/2 = 0;  t = 0.8: 1/4 = 0.25;  t = 0.6: 1/5 = 0.2;  t = 0.4: 2/6.
 * Target 0.2: the lowest t with error ≤ 0.2 is 0.6 (although 0.8 above it fails: not monotone).
 * Evaluation half at t = 0.6: rows 0 (0.9 ✓), 3 (0.7 ✗), 6 (0.6 ✓), 10 (0.6, declined) answered;
 *   8 (0.5 ✓) and 1 (0.3 ✗) abstained. Coverage 4/6, error 2/4; correct 2, incorrect 1,
 *   not attempted 3 (2 abstained + 1 declined).
 * Wilson 95 % (z = 1.96), evaluated in Python: 4 of 6 → [0.29998832134152864, 0.9032306674407831];
 *   2 of 4 → [0.15003570882017148, 0.8499642911798285].
 */
const conf = [0.9, 0.3, 0.9, 0.7, 0.8, 0.6, 0.6, 0.8, 0.5, 0.95, 0.6, 0.4];
const y = [1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0];
const declined = conf.map((_, i) => (i === 10 ? 1 : 0));

describe('heldOutSplit', () => {
  it('takes the first ⌊N/2⌋ of numpy’s permutation for selection', () => {
    const s = heldOutSplit(12, 0);
    expect(Array.from(s.selection)).toEqual([9, 2, 7, 4, 5, 11]);
    expect(Array.from(s.evaluation)).toEqual([0, 3, 6, 10, 8, 1]);
    // Odd N: the evaluation half gets the extra row (numpy: permutation(10) = [4 6 2 7 3 5 9 0 8 1]).
    expect(heldOutSplit(11, 0).selection.length).toBe(5);
    expect(heldOutSplit(11, 0).evaluation.length).toBe(6);
    expect(Array.from(heldOutSplit(10, 0).selection)).toEqual([4, 6, 2, 7, 3]);
  });
});

describe('chooseThreshold', () => {
  const rows = [9, 2, 7, 4, 5, 11];
  it('lists every candidate and picks the lowest that meets the target', () => {
    const c = chooseThreshold(conf, y, rows, 0.2);
    expect(c.candidates).toEqual([
      { threshold: 0.95, answered: 1, errors: 0 },
      { threshold: 0.9, answered: 2, errors: 0 },
      { threshold: 0.8, answered: 4, errors: 1 },
      { threshold: 0.6, answered: 5, errors: 1 },
      { threshold: 0.4, answered: 6, errors: 2 },
    ]);
    expect(c.threshold).toBe(0.6);
    expect(c.answered).toBe(5);
    expect(c.errors).toBe(1);
  });
  it('moves with the target', () => {
    expect(chooseThreshold(conf, y, rows, 0.1).threshold).toBe(0.9);
    expect(chooseThreshold(conf, y, rows, 0).threshold).toBe(0.9);
    expect(chooseThreshold(conf, y, rows, 0.25).threshold).toBe(0.6);
    expect(chooseThreshold(conf, y, rows, 0.34).threshold).toBe(0.4);
  });
  it('is null when even the most confident question is wrong and the target is 0', () => {
    expect(chooseThreshold([0.9, 0.5], [0, 1], [0, 1], 0).threshold).toBeNull();
  });
});

describe('abstention on the hand-computed fixture', () => {
  it('six questions cannot certify an error of 20%: no threshold, and the reason names the bound', () => {
    // 5 thresholds tried, each bound at 1 − 0.05/5: even 0 errors of 2 answered bounds the error by 0.9.
    const r = abstention(conf, y, { target: 0.2, seed: 0, declined });
    expect(r.threshold).toBeNull();
    expect(r.choice.tried).toBe(5);
    expect(r.choice.candidates[1]).toMatchObject({ threshold: 0.9, answered: 2, errors: 0 });
    expect(r.choice.candidates[1].bound).toBeCloseTo(0.9, 10);
    expect(r.reason).toMatch(/^no threshold's 95% upper bound on the selective error of the selection half is at or below the target of 20%$/);
    expect(r.evaluation.answered).toBe(0);
  });

  it('evaluates coverage, error and the SimpleQA counts on the other half at t = 0.6', () => {
    const e = selectiveCounts(conf, y, heldOutSplit(12, 0).evaluation, 0.6, declined);
    expect(e.questions).toBe(6);
    expect(e.answered).toBe(4);
    expect(e.errors).toBe(2);
    expect(e.coverage[0]).toBe(4 / 6);
    expect(e.error[0]).toBe(0.5);
    expect(e.coverage[1]).toBeCloseTo(0.29998832134152864, 12);
    expect(e.coverage[2]).toBeCloseTo(0.9032306674407831, 12);
    expect(e.error[1]).toBeCloseTo(0.15003570882017148, 12);
    expect(e.error[2]).toBeCloseTo(0.8499642911798285, 12);
    expect({ correct: e.correct, incorrect: e.incorrect, notAttempted: e.notAttempted, abstained: e.abstained, declined: e.declined })
      .toEqual({ correct: 2, incorrect: 1, notAttempted: 3, abstained: 2, declined: 1 });
  });

  it('abstains on everything, with a reason, when no threshold meets the target', () => {
    const none = abstention([0.9, 0.5, 0.9, 0.5], [0, 1, 0, 1], { target: 0, seed: 0 });
    expect(none.threshold).toBeNull();
    expect(none.reason).toMatch(/^no threshold's/);
    expect(none.evaluation.answered).toBe(0);
    expect(none.evaluation.coverage[0]).toBe(0);
    expect(none.evaluation.error[0]).toBeNaN();
    expect(none.evaluation.notAttempted).toBe(2);
  });

  it('says why with too few questions or a missing confidence, and refuses a target outside [0, 1]', () => {
    expect(abstention([0.5], [1], { target: 0.1, seed: 0 }).reason).toMatch(/too few/);
    expect(abstention([0.5, NaN], [1, 0], { target: 0.1, seed: 0 }).reason).toMatch(/question 2/);
    expect(() => abstention(conf, y, { target: 1.5, seed: 0 })).toThrow(/target error/);
  });

  it('counts answered rows with conf ≥ t, ties at t included', () => {
    const c = selectiveCounts([0.6, 0.6, 0.5], [1, 0, 1], [0, 1, 2], 0.6);
    expect(c.answered).toBe(2);
    expect(c.error[0]).toBe(0.5);
  });
});

describe('the guaranteed threshold (Clopper–Pearson bound, Bonferroni over the thresholds tried)', () => {
  // Selection rows: 100 at 0.9 with 2 wrong, 100 at 0.5 with 50 wrong. Two thresholds tried, each
  // bound at 1 − 0.05/2 (scipy beta.ppf(0.975, k + 1, n − k)): 2 of 100 → 0.0703839; 52 of 200 → 0.3265778.
  const c = [...Array(100).fill(0.9), ...Array(100).fill(0.5)];
  const yy = [...Array(98).fill(1), 0, 0, ...Array(50).fill(1), ...Array(50).fill(0)];
  const rows = c.map((_, i) => i);

  it('takes the lowest threshold whose bound is at most the target', () => {
    const g = chooseGuaranteedThreshold(c, yy, rows, 0.1);
    expect(g.tried).toBe(2);
    expect(g.candidates.map((x) => [x.threshold, x.answered, x.errors])).toEqual([[0.9, 100, 2], [0.5, 200, 52]]);
    expect(g.candidates[0].bound).toBeCloseTo(0.07038393247107011, 10);
    expect(g.candidates[1].bound).toBeCloseTo(0.3265777536571397, 10);
    expect(g.threshold).toBe(0.9);
    expect(g.bound).toBeCloseTo(0.07038393247107011, 10);
    // The plain rule would take 0.9 too at 0.1, but at 0.05 the plain rule still answers (2% ≤ 5%) while the bound (7.0%) forbids it.
    expect(chooseThreshold(c, yy, rows, 0.05).threshold).toBe(0.9);
    expect(chooseGuaranteedThreshold(c, yy, rows, 0.05).threshold).toBeNull();
    expect(chooseGuaranteedThreshold(c, yy, rows, 0.33).threshold).toBe(0.5);
  });

  it('tries at most 50 thresholds, chosen by coverage from the confidences alone', () => {
    const many = Array.from({ length: 1000 }, (_, i) => i / 1000);
    const g = chooseGuaranteedThreshold(many, many.map(() => 1), many.map((_, i) => i), 0.1);
    expect(g.tried).toBe(50);
    expect(g.candidates.map((x) => x.answered)).toEqual(Array.from({ length: 50 }, (_, j) => 20 * (j + 1)));
    // No error at all: every bound is 1 − (0.001)^(1/n); the lowest threshold passes.
    expect(g.threshold).toBe(0);
  });

  it('repeats over 20 seeded splits and reports the held-out error\'s spread', () => {
    const big = [...c, ...c];
    const by = [...yy, ...yy];
    const s = abstentionSpread(big, by, { target: 0.1, seed: 3 });
    expect(s.splits.map((x) => x.seed)).toEqual(Array.from({ length: 20 }, (_, r) => 3 + r));
    expect(s.splits[0].threshold).toBe(abstention(big, by, { target: 0.1, seed: 3 }).threshold);
    // Every split answers only the 0.9 questions (4 wrong of 200 overall), so the held-out error is at most 4/(held-out 0.9s).
    expect(s.abstainedOnAll).toBe(0);
    expect(s.heldOutError.min).toBeLessThanOrEqual(s.heldOutError.median);
    expect(s.heldOutError.median).toBeLessThanOrEqual(s.heldOutError.max);
    expect(s.heldOutError.max).toBeLessThan(0.1);
    expect(s.exceeded).toBe(0);
  });
});
