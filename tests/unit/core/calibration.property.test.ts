import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  aurc,
  auroc,
  brierDecomposition,
  eceEqualMass,
  eceEqualWidth,
  mce,
  reliabilityBins,
  smoothEce,
} from '../../../src/core/calibration';

/** Rows of (confidence, Y); confidences are often Sem1-like fractions k/n so ties and edges occur. */
const rows = fc.array(
  fc.tuple(
    fc.oneof(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 50 })).map(([k, n]) => Math.min(k, n) / n),
      fc.constantFrom(0, 0.3, 0.6, 0.7, 1, 0.30000000000000004),
    ),
    fc.integer({ min: 0, max: 1 }),
  ),
  { minLength: 1, maxLength: 300 },
);
const split = (r: [number, number][]) => [r.map((x) => x[0]), r.map((x) => x[1])] as const;

describe('calibration invariants', () => {
  it('ECE, equal-mass ECE and MCE lie in [0, 1]; MCE over every non-empty bin ≥ ECE', () => {
    fc.assert(
      fc.property(rows, fc.integer({ min: 1, max: 20 }), (r, bins) => {
        const [c, y] = split(r);
        const ece = eceEqualWidth(c, y, bins);
        // With no minimum count the MCE bounds the ECE, a weighted mean of the same gaps.
        const m = mce(c, y, bins, 1);
        const em = eceEqualMass(c, y, bins);
        expect(ece).toBeGreaterThanOrEqual(0);
        expect(ece).toBeLessThanOrEqual(1);
        expect(em).toBeGreaterThanOrEqual(0);
        expect(em).toBeLessThanOrEqual(1);
        expect(m).toBeLessThanOrEqual(1);
        expect(m).toBeGreaterThanOrEqual(ece - 1e-15);
      }),
    );
  });

  it('bin counts add up to N and bins follow the edges', () => {
    fc.assert(
      fc.property(rows, (r) => {
        const [c, y] = split(r);
        const bins = reliabilityBins(c, y, 10);
        expect(bins.reduce((s, b) => s + b.count, 0)).toBe(c.length);
        for (const b of bins) {
          if (b.count === 0) continue;
          expect(b.meanConfidence).toBeGreaterThanOrEqual(b.lo - 1e-15);
          expect(b.meanConfidence).toBeLessThanOrEqual(b.hi + 1e-15);
        }
      }),
    );
  });

  it('Brier = reliability − resolution + uncertainty + within-bin variance − within-bin covariance within 1e-12', () => {
    fc.assert(
      fc.property(rows, (r) => {
        const [c, y] = split(r);
        const d = brierDecomposition(c, y);
        const sum = d.reliability - d.resolution + d.uncertainty + d.withinBinVariance! - d.withinBinCovariance!;
        expect(Math.abs(d.score - sum)).toBeLessThan(1e-12);
        expect(d.resolution).toBeLessThanOrEqual(d.uncertainty + 1e-15);
        expect(d.withinBinVariance).toBeGreaterThanOrEqual(0);
        expect(d.score).toBeGreaterThanOrEqual(0);
        expect(d.score).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('AUROC in [0, 1] (or NaN with one class), AURC in [0, 1]', () => {
    fc.assert(
      fc.property(rows, (r) => {
        const [c, y] = split(r);
        const a = auroc(c, y);
        const both = y.includes(0) && y.includes(1);
        if (both) {
          expect(a).toBeGreaterThanOrEqual(0);
          expect(a).toBeLessThanOrEqual(1);
        } else expect(a).toBeNaN();
        const rc = aurc(c, y);
        expect(rc).toBeGreaterThanOrEqual(0);
        expect(rc).toBeLessThanOrEqual(1 + 1e-12);
      }),
    );
  });

  it('AUROC of the negated confidence is 1 − AUROC', () => {
    fc.assert(
      fc.property(rows, (r) => {
        const [c, y] = split(r);
        if (!(y.includes(0) && y.includes(1))) return;
        expect(auroc(c.map((x) => -x), y)).toBeCloseTo(1 - auroc(c, y), 12);
      }),
    );
  });

  it('smooth ECE lies in [0, 1]', () => {
    fc.assert(
      fc.property(rows, (r) => {
        const [c, y] = split(r);
        const s = smoothEce(c, y);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1 + 1e-9);
      }),
      { numRuns: 20 },
    );
  });
});
