import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { equalMassBins } from '../../../src/core/equal-mass';
import { ascendingOrder, aurc, auroc } from '../../../src/core/ranking';

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
