/** adaptiveRowMismatch: whether a rule replayed over a row's answers gives the row's selection block and samples. */
import { describe, expect, it } from 'vitest';
import { adaptiveRule } from '../../../src/core/adaptive-rule';
import { adaptiveRowMismatch } from '../../../src/pipeline/adaptive-slots';

const rule = adaptiveRule(10, { firstRound: 3, roundSize: 3, maxSelection: 3, settledHeldOut: 4 });
const same = (n: number) => Array.from({ length: n }, () => 'Paris');

describe('adaptiveRowMismatch', () => {
  it('accepts a row the rule gives, answers compared as the sampling compared them', () => {
    // Settled: 3 agreeing (case and punctuation normalised away), then 4 held out.
    expect(adaptiveRowMismatch(['Paris', 'paris.', ' PARIS', 'x', 'y', 'z', 'w'], 3, rule)).toBeUndefined();
    // Unsettled: every slot left is held out.
    expect(adaptiveRowMismatch(['a', 'b', 'a', ...same(7)], 3, rule)).toBeUndefined();
  });
  it('names what the rule gives against what the row has', () => {
    expect(adaptiveRowMismatch(same(7), 4, rule)).toBe('the rule replayed over its answers gives a selection block of 3 and 7 samples, but the row has selection_samples 4 and 7 samples');
    expect(adaptiveRowMismatch(same(10), 3, rule)).toBe('the rule replayed over its answers gives a selection block of 3 and 7 samples, but the row has selection_samples 3 and 10 samples');
    expect(adaptiveRowMismatch(['a', 'b', 'a', 'c'], 3, rule)).toBe('the rule replayed over its 4 answers is not finished: it would draw 6 more held-out samples');
    expect(adaptiveRowMismatch(['a'], 1, rule)).toBe('the rule replayed over its 1 answer is not finished: it would draw 2 more selection samples');
    expect(adaptiveRowMismatch(same(11), 3, rule)).toBe('it has 11 samples, more than the maximum 10');
    expect(adaptiveRowMismatch(same(7), undefined, rule)).toBe('it has no selection_samples: it was not sampled adaptively');
  });
});
