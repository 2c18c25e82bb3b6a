import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { equalMassBins } from '../../../src/core/equal-mass';
import { ascendingOrder, auroc } from '../../../src/core/ranking';
import { aurc } from '../../../src/core/risk-coverage';
import { pairwiseSum } from '../../../src/core/pairwise';

/** Confidences with many ties (Sem1-like fractions), signed zeros, and arbitrary doubles. */
const confs = fc.array(
  fc.oneof(
    fc.integer({ min: 0, max: 20 }).map((k) => k / 20),
    fc.constantFrom(0, -0, 1, 0.3, 0.30000000000000004),
    fc.double({ min: -1, max: 2, noNaN: true }),
  ),
  { maxLength: 400 },
);

/** The straightforward versions the fast paths replace. */
function comparatorOrder(conf: number[]): number[] {
  return Array.from({ length: conf.length }, (_, i) => i).sort((a, b) => conf[a] - conf[b] || a - b);
}

describe('ascendingOrder (counting sort over distinct values)', () => {
  it('equals the comparator sort, ties in input order', () => {
    fc.assert(fc.property(confs, (c) => {
      expect(Array.from(ascendingOrder(c))).toEqual(comparatorOrder(c));
    }), { numRuns: 200 });
  });

  it('leaves AUROC, AURC and equal-mass bins as the comparator order gives them', () => {
    fc.assert(fc.property(confs, fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 400, maxLength: 400 }), (c, yAll) => {
      const y = yAll.slice(0, c.length);
      // Reference AUROC from the comparator order, mid-ranks over ties.
      const order = comparatorOrder(c);
      const pos = y.filter((v) => v === 1).length, neg = y.length - pos;
      let rankSum = 0;
      for (let s = 0; s < order.length; ) {
        let e = s + 1;
        while (e < order.length && c[order[e]] === c[order[s]]) e++;
        for (let p = s; p < e; p++) if (y[order[p]] === 1) rankSum += (s + 1 + e) / 2;
        s = e;
      }
      const ref = pos === 0 || neg === 0 ? NaN : (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
      expect(auroc(c, y)).toBe(ref);
      expect(Number.isNaN(aurc(c, y)) || (aurc(c, y) >= 0 && aurc(c, y) <= 1)).toBe(true);
      // Equal-mass bins: each bin's rows are a run of the comparator order.
      const bins = equalMassBins(c, y, 7);
      expect(bins.reduce((a, b) => a + b.count, 0)).toBe(c.length);
      let at = 0;
      for (const b of bins) {
        expect(b.lo).toBe(c[order[at]]);
        expect(b.hi).toBe(c[order[at + b.count - 1]]);
        at += b.count;
      }
    }), { numRuns: 100 });
  });
});

describe('equal-mass bins against the straightforward construction', () => {
  /** Steps 1–4 of equal-mass.ts with comparator sorts and per-bin slices sorted by row. */
  function reference(conf: number[], y: number[], bins: number) {
    const n = conf.length;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => {
      const na = Number.isNaN(conf[a]), nb = Number.isNaN(conf[b]);
      if (na || nb) return na === nb ? a - b : na ? 1 : -1;
      return conf[a] - conf[b] || a - b;
    });
    const same = (p: number) => Object.is(conf[order[p]], conf[order[p - 1]]) || conf[order[p]] === conf[order[p - 1]];
    const cuts = [0];
    for (let b = 1; b < bins; b++) {
      let p = Math.max(Math.floor((b * n) / bins), cuts[cuts.length - 1]);
      while (p > 0 && p < n && same(p)) p++;
      cuts.push(p);
    }
    cuts.push(n);
    const out = [];
    for (let b = 0; b < cuts.length - 1; b++) {
      if (cuts[b + 1] <= cuts[b]) continue;
      const rows = order.slice(cuts[b], cuts[b + 1]);
      const lo = conf[rows[0]], hi = conf[rows[rows.length - 1]];
      rows.sort((a, c) => a - c);
      const c = Float64Array.from(rows, (r) => conf[r]), yy = Float64Array.from(rows, (r) => y[r]);
      out.push({ lo, hi, count: rows.length, meanConfidence: pairwiseSum(c) / rows.length, accuracy: pairwiseSum(yy) / rows.length });
    }
    return out;
  }

  it('gives the same bins, bit for bit, with or without NaN confidences', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.oneof(confs.map((c) => c[0] ?? 0.5), fc.constant(NaN), fc.integer({ min: 0, max: 10 }).map((k) => k / 10)), fc.integer({ min: 0, max: 1 })), { maxLength: 500 }),
      fc.integer({ min: 1, max: 15 }),
      (rows, bins) => {
        const c = rows.map((r) => r[0]), y = rows.map((r) => r[1]);
        expect(equalMassBins(c, y, bins)).toEqual(reference(c, y, bins));
      },
    ), { numRuns: 200 });
  });
});
