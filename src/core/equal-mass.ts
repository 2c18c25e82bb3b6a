/**
 * Equal-mass (adaptive) ECE: bins holding (about) the same number of rows instead of equal
 * widths. Labelled separately from the paper's ECE everywhere; it is a companion, not a substitute.
 *
 * Construction (documented because every library does it a little differently):
 * 1. Sort the rows by confidence (ascending; ties keep input order; NaN last).
 * 2. Cut the sorted list at positions floor(b·N/L), b = 1..L−1.
 * 3. Never split equal confidences: a cut that falls inside a run of equal values moves up to the
 *    end of that run. Sem1 values are a few fractions k/n, so without this rule the result would
 *    depend on input order; with it, fewer than L bins may remain (empty bins are dropped).
 * 4. Each bin's means are pairwise means over its rows in input order; lo/hi are the smallest and
 *    largest confidence in the bin. ECE = Σ (|bin|/N)·|accuracy − mean confidence|, bins in order.
 */
import { binMeans, eceFromBins } from './ece';
import { ascendingOrder } from './ranking';
import type { ReliabilityBin } from './types';

export function equalMassBins(
  conf: ArrayLike<number>,
  y: ArrayLike<number>,
  bins = 10,
  /** The rows' ascendingOrder(conf, n) when the caller already has it (no NaN confidence; not modified). */
  given?: Int32Array,
): ReliabilityBin[] {
  const n = Math.min(conf.length, y.length);
  if (n === 0) return [];
  const L = Math.max(1, Math.floor(bins));
  const order = given ?? sortedRows(conf, n);
  const same = (p: number) => Object.is(conf[order[p]], conf[order[p - 1]]) || conf[order[p]] === conf[order[p - 1]];
  const cuts: number[] = [0];
  for (let b = 1; b < L; b++) {
    let p = Math.max(Math.floor((b * n) / L), cuts[cuts.length - 1]);
    while (p > 0 && p < n && same(p)) p++;
    cuts.push(p);
  }
  cuts.push(n);
  // Each bin's rows in input order: label every row with its bin, then one pass in row order
  // (the same lists as sorting each bin's slice of `order` by row index, in O(N)).
  const binOf = new Int32Array(n);
  const rowsOf: number[][] = [];
  for (let b = 0; b < cuts.length - 1; b++) {
    rowsOf.push([]);
    for (let p = cuts[b]; p < cuts[b + 1]; p++) binOf[order[p]] = b;
  }
  for (let i = 0; i < n; i++) rowsOf[binOf[i]].push(i);
  const out: ReliabilityBin[] = [];
  for (let b = 0; b < cuts.length - 1; b++) {
    if (cuts[b + 1] <= cuts[b]) continue;
    const lo = conf[order[cuts[b]]], hi = conf[order[cuts[b + 1] - 1]];
    out.push({ lo, hi, ...binMeans(conf, y, rowsOf[b]) });
  }
  return out;
}

/** Step 1: rows by confidence, ascending, ties in input order, NaN last. */
function sortedRows(conf: ArrayLike<number>, n: number): ArrayLike<number> {
  let hasNaN = false;
  for (let i = 0; i < n && !hasNaN; i++) hasNaN = Number.isNaN(conf[i]);
  // The same order without comparator calls (counting sort over the distinct values).
  if (!hasNaN) return ascendingOrder(conf, n);
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => {
    const ca = conf[a], cb = conf[b];
    const na = Number.isNaN(ca), nb = Number.isNaN(cb);
    if (na || nb) return na === nb ? a - b : na ? 1 : -1;
    return ca - cb || a - b;
  });
  return order;
}

export function eceEqualMass(conf: ArrayLike<number>, y: ArrayLike<number>, bins = 10): number {
  return eceFromBins(equalMassBins(conf, y, bins));
}
