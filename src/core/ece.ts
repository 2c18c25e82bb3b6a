/**
 * The paper's ECE (equal-width bins, edges i*0.1), its per-bin data for reliability diagrams,
 * and the MCE over the same bins.
 *
 * Bit-exactness: each bin's mean confidence is numpy's pairwise mean over the bin's rows in
 * input order (rows are gathered with a stable counting sort, so the order is kept), and the
 * bins are summed in bin order as (|bin|/N)·|acc − conf|, the authors' expression.
 */
import { pairwiseSum } from './pairwise';
import { equalWidthBinIndex, equalWidthEdges } from './binning';
import type { ReliabilityBin } from './types';

/**
 * A confidence signal coded for fast ECEs over many row subsets (the bootstrap computes
 * thousands): per row one 32-bit code = (index of its value in a table of distinct values,
 * bin, Y). A replicate then touches one small array per row instead of three, and the table
 * lookup returns the exact double, so bin means stay bit-exact.
 */
export interface CodedSignal {
  codes: Uint32Array;
  table: Float64Array;
  /** Bits below the value index: bin in bits 1.., Y in bit 0. */
  shift: number;
  bins: number;
}

/** Y must be 0/1 (anything else counts as 0): the caller validates correctness labels. */
export function codeSignal(
  conf: ArrayLike<number>,
  y: ArrayLike<number>,
  binOfRow: ArrayLike<number>,
  bins: number,
  n = Math.min(conf.length, y.length),
): CodedSignal {
  const shift = Math.ceil(Math.log2(2 * bins));
  const index = new Map<number, number>();
  const values: number[] = [];
  const codes = new Uint32Array(n);
  const limit = 2 ** (32 - shift);
  for (let i = 0; i < n; i++) {
    const c = conf[i];
    let k = index.get(c);
    if (k === undefined) {
      k = values.length;
      index.set(c, k);
      values.push(c);
      if (values.length > limit) throw new RangeError('codeSignal: too many distinct confidences');
    }
    codes[i] = (k * 2 ** shift) + (binOfRow[i] << 1) + (y[i] === 1 ? 1 : 0);
  }
  return { codes, table: Float64Array.from(values), shift, bins };
}

/**
 * Reusable buffers for ECEs of coded signals over row subsets: nothing is allocated per call.
 * The bin's rows are gathered with a stable counting sort, so each bin's values are summed in
 * row order by numpy's pairwise scheme; Y is 0/1, so its per-bin sum is an exact count.
 */
export class BinnedEceWorkspace {
  private readonly gathered: Float64Array;
  private readonly picked: Uint32Array;
  private readonly counts: Int32Array;
  private readonly cursor: Int32Array;

  constructor(capacity: number, bins: number) {
    this.gathered = new Float64Array(Math.max(1, capacity));
    this.picked = new Uint32Array(Math.max(1, capacity));
    this.counts = new Int32Array(2 * bins);
    this.cursor = new Int32Array(bins);
  }

  /** ECE over rows[0..m-1] (row indices of the coded signal; repeats allowed). NaN when m = 0. */
  ece(signal: CodedSignal, rows: Int32Array, m: number): number {
    if (m <= 0) return NaN;
    const { gathered, picked, counts, cursor } = this;
    const { codes, table, shift, bins } = signal;
    const low = 2 ** shift - 1;
    counts.fill(0);
    for (let j = 0; j < m; j++) {
      const code = codes[rows[j]];
      picked[j] = code;
      counts[code & low]++;
    }
    startCursors(counts, cursor, bins);
    for (let j = 0; j < m; j++) {
      const code = picked[j];
      gathered[cursor[(code & low) >>> 1]++] = table[code >>> shift];
    }
    return eceOfGathered(gathered, counts, bins, m);
  }
}

/** Start of each bin's segment, from counts laid out as [bin·2 + y]. */
export function startCursors(counts: Int32Array, cursor: Int32Array, L: number): void {
  let start = 0;
  for (let b = 0; b < L; b++) {
    cursor[b] = start;
    start += counts[2 * b] + counts[2 * b + 1];
  }
}

/**
 * ECE from values gathered bin after bin (row order kept within a bin) and counts laid out as
 * [bin·2 + y]: Σ over non-empty bins, in order, of (|bin|/m)·|acc − pairwise mean confidence|.
 */
export function eceOfGathered(gathered: Float64Array, counts: Int32Array, L: number, m: number): number {
  if (m <= 0) return NaN;
  let ece = 0;
  let begin = 0;
  for (let b = 0; b < L; b++) {
    const n = counts[2 * b] + counts[2 * b + 1];
    if (n === 0) continue;
    const meanConf = pairwiseSum(gathered, begin, begin + n) / n;
    ece += (n / m) * Math.abs(counts[2 * b + 1] / n - meanConf);
    begin += n;
  }
  return ece;
}

/** 0, 1, …, n−1: the rows of the original data, for point estimates through the workspace. */
export function identityRows(n: number): Int32Array {
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  return rows;
}

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

/** Largest |accuracy − mean confidence| over non-empty bins; NaN when there are none. */
export function mceFromBins(bins: readonly ReliabilityBin[]): number {
  let mce = -Infinity;
  for (const b of bins) {
    if (b.count === 0) continue;
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

/** Maximum calibration error over the paper's equal-width bins. */
export function mce(conf: ArrayLike<number>, y: ArrayLike<number>, bins = 10): number {
  return mceFromBins(reliabilityBins(conf, y, bins));
}
