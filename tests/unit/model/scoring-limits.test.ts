import { describe, expect, test } from 'vitest';
import { MAX_RECOMPUTE_STEPS, recomputeRefusal, recomputeSteps } from '../../../src/model/scoring-limits';

describe('the recompute budget', () => {
  test('counts B + 1 passes over every signal, rows and bins', () => {
    expect(recomputeSteps({ rows: 100, B: 999, signals: 3, bins: 10 })).toBe(1000 * 3 * 110);
  });

  test('a real report is within it; a forged B or bins is not, and the refusal names the sizes', () => {
    // 40,000 questions, the paper's B over eight signals.
    expect(recomputeRefusal({ rows: 40_000, B: 1000, signals: 8, bins: 10 })).toBeNull();
    const refusal = recomputeRefusal({ rows: 120, B: 1e8, signals: 3, bins: 10 });
    expect(refusal).toMatch(/^recomputing 120 questions × 100,000,000 bootstrap replicates × 3 signals \(10 bins\) would take about 3\.9e\+10 steps; the limit is 2e\+9\./);
    expect(recomputeRefusal({ rows: 1, B: 1, signals: 1, bins: Number.POSITIVE_INFINITY })).not.toBeNull();
    expect(recomputeRefusal({ rows: 1, B: Number.NaN, signals: 1, bins: 10 })).not.toBeNull();
  });

  test('the limit sits exactly at MAX_RECOMPUTE_STEPS', () => {
    const rows = MAX_RECOMPUTE_STEPS / 1000 - 10;
    expect(recomputeRefusal({ rows, B: 999, signals: 1, bins: 10 })).toBeNull();
    expect(recomputeRefusal({ rows: rows + 1, B: 999, signals: 1, bins: 10 })).not.toBeNull();
  });
});
