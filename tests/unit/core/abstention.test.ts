import { describe, expect, it } from 'vitest';
import { abstention, chooseThreshold, heldOutSplit, selectiveCounts } from '../../../src/core/abstention';

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
  const r = abstention(conf, y, { target: 0.2, seed: 0, declined });

  it('chooses 0.6 on the selection half', () => {
    expect(r.threshold).toBe(0.6);
    expect(r.reason).toBeUndefined();
    expect(r.selection.answered).toBe(5);
    expect(r.selection.error[0]).toBe(0.2);
  });

  it('evaluates coverage, error and the SimpleQA counts on the other half', () => {
    const e = r.evaluation;
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
    expect(none.reason).toMatch(/no threshold/);
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
