/**
 * The paper's ECE (equal-width bins, edges i*0.1), its per-bin data for reliability diagrams,
 * and the MCE over the same bins.
 *
 * Bit-exactness: each bin's mean confidence is numpy's pairwise mean over the bin's rows in
 * input order, and the bins are summed in bin order as (|bin|/N)·|acc − conf|, the authors'
 * expression. The fast path for many row subsets (the bootstrap) is in ece-workspace.ts.
 */
import { pairwiseSum } from './pairwise';
import { equalWidthBinIndex, equalWidthEdges } from './binning';
import type { ReliabilityBin } from './types';

export {
  BinnedEceWorkspace,
  Buckets,
  codeSignal,
  eceOfGathered,
  identityRows,
  startCursors,
  type CodedSignal,
} from './ece-workspace';

function checkedLength(conf: ArrayLike<number>, y: ArrayLike<number>): number {
  return Math.min(conf.length, y.length);
}

/** Rows of each bin, in input order. */
function rowsByBin(binOf: Uint16Array, n: number, L: number): number[][] {
  const rows: number[][] = Array.from({ length: L }, () => []);
  for (let i = 0; i < n; i++) rows[binOf[i]].push(i);
  return rows;
}

/**
 * Per-bin count, mean confidence and accuracy for a reliability diagram, with each bin's
 * edges. Empty bins are kept (count 0, NaN means) so a diagram can show the gap.
 */
export function reliabilityBins(
  conf: ArrayLike<number>,
  y: ArrayLike<number>,
  bins = 10,
): ReliabilityBin[] {
  const n = checkedLength(conf, y);
  const edges = equalWidthEdges(bins);
  const L = edges.length - 1;
  const binOf = equalWidthBinIndex(conf, edges, n);
  return rowsByBin(binOf, n, L).map((rows, b) => ({
    lo: edges[b],
    hi: edges[b + 1],
    ...binMeans(conf, y, rows),
  }));
}

/** Count and pairwise means of the given rows, in their order. Shared with equal-mass bins. */
export function binMeans(
  conf: ArrayLike<number>,
  y: ArrayLike<number>,
  rows: readonly number[],
): { count: number; meanConfidence: number; accuracy: number } {
  const count = rows.length;
  if (count === 0) return { count, meanConfidence: NaN, accuracy: NaN };
  const c = new Float64Array(count);
  const yy = new Float64Array(count);
  for (let j = 0; j < count; j++) {
    c[j] = conf[rows[j]];
    yy[j] = y[rows[j]];
  }
  return { count, meanConfidence: pairwiseSum(c) / count, accuracy: pairwiseSum(yy) / count };
}

/** Σ over non-empty bins, in bin order, of (|bin|/N)·|accuracy − mean confidence|; NaN when empty. */
export function eceFromBins(bins: readonly ReliabilityBin[]): number {
  let total = 0;
  for (const b of bins) total += b.count;
  if (total === 0) return NaN;
  let ece = 0;
  for (const b of bins) {
    if (b.count === 0) continue;
    ece += (b.count / total) * Math.abs(b.accuracy - b.meanConfidence);
  }
  return ece;
}

/**
 * The fewest questions a bin needs to count towards the MCE. A bin of one or two questions has a
 * gap of 0.5 or more by chance alone (one wrong answer at confidence 0.95 is a gap of 0.95), so an
 * MCE over every non-empty bin mostly reports the emptiest bin; from 10 questions up a gap is at
 * least a tenth of a question's worth of evidence. Stated in the metric's label and glossary.
 */
export const MCE_MIN_COUNT = 10;

/**
 * Largest |accuracy − mean confidence| over the bins holding at least `minCount` questions
 * (default MCE_MIN_COUNT); NaN when no bin has that many.
 */
export function mceFromBins(bins: readonly ReliabilityBin[], minCount = MCE_MIN_COUNT): number {
  let mce = -Infinity;
  for (const b of bins) {
    if (b.count === 0 || b.count < minCount) continue;
    const gap = Math.abs(b.accuracy - b.meanConfidence);
    if (Number.isNaN(gap)) return NaN;
    if (gap > mce) mce = gap;
  }
  return mce === -Infinity ? NaN : mce;
}

/** The paper's ECE with L equal-width bins (default 10, edges i*0.1). */
export function eceEqualWidth(conf: ArrayLike<number>, y: ArrayLike<number>, bins = 10): number {
  return eceFromBins(reliabilityBins(conf, y, bins));
}

/** Maximum calibration error over the paper's equal-width bins with at least `minCount` questions. */
export function mce(conf: ArrayLike<number>, y: ArrayLike<number>, bins = 10, minCount = MCE_MIN_COUNT): number {
  return mceFromBins(reliabilityBins(conf, y, bins), minCount);
}
