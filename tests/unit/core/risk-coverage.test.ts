import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aurc, riskCoverageCurve } from '../../../src/core/risk-coverage';

describe('riskCoverageCurve', () => {
  it('matches a hand-computed curve with a tie group', () => {
    // Most confident first: 0.9 (right), then 0.8 twice (one wrong, order unknown), then 0.5 (wrong).
    // k=1: 0/1; k=2: (0 + 1·1/2)/2 = 1/4; k=3: (0 + 2·1/2)/3 = 1/3; k=4: (1 + 1)/4 = 1/2.
    const c = riskCoverageCurve([0.8, 0.9, 0.5, 0.8], [1, 1, 0, 0]);
    expect(Array.from(c.coverage)).toEqual([0.25, 0.5, 0.75, 1]);
    expect(Array.from(c.risk)).toEqual([0, 0.25, 1 / 3, 0.5]);
    expect(Array.from(c.threshold)).toEqual([0.9, 0.8, 0.8, 0.5]);
    expect(Array.from(c.groupEnd)).toEqual([1, 0, 1, 1]);
    expect(c.area).toBeCloseTo((0 + 0.25 + 1 / 3 + 0.5) / 4, 15);
    expect(c.area).toBe(aurc([0.8, 0.9, 0.5, 0.8], [1, 1, 0, 0]));
  });

  it('is empty with a NaN area for no rows or a NaN confidence, as aurc', () => {
    expect(riskCoverageCurve([], []).n).toBe(0);
    expect(riskCoverageCurve([], []).area).toBeNaN();
    expect(riskCoverageCurve([0.5, NaN], [1, 0]).n).toBe(0);
  });

  it('has an area (the AURC) equal to the mean of its risks, ties included, and ends at the overall error', () => {
    const conf = fc.array(fc.oneof(fc.integer({ min: 0, max: 10 }).map((k) => k / 10), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 300 });
    fc.assert(
      fc.property(conf, fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 300, maxLength: 300 }), (c, yAll) => {
        const y = yAll.slice(0, c.length);
        const curve = riskCoverageCurve(c, y);
        expect(aurc(c, y)).toBe(curve.area);
        expect(curve.area).toBeCloseTo(curve.risk.reduce((a, r) => a + r, 0) / c.length, 12);
        const errors = y.filter((v) => v === 0).length;
        expect(curve.risk[c.length - 1]).toBeCloseTo(errors / c.length, 12);
        // At the end of each tie group the risk is a plain count: errors among rows with conf ≥ that threshold.
        for (let k = 0; k < curve.n; k++) {
          if (!curve.groupEnd[k]) continue;
          const t = curve.threshold[k];
          const rows = c.map((v, i) => [v, y[i]]).filter(([v]) => v >= t);
          expect(rows.length).toBe(k + 1);
          expect(curve.risk[k]).toBeCloseTo(rows.filter(([, yy]) => yy === 0).length / rows.length, 12);
        }
      }),
      { numRuns: 150 },
    );
  });
});
