/**
 * ECEs over many row subsets of one data set, fast and bit-exact (the bootstrap computes
 * thousands): a signal is coded once, then each subset costs one pass with no allocation.
 * Same definition as ece.ts: per-bin pairwise means in row order, bins summed in order as
 * (|bin|/m)·|accuracy − mean confidence|.
 */
import { pairwiseSum } from './pairwise';

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
 * Reusable buffers for ECEs of coded signals over row subsets: nothing is allocated per call
 * (after a signal's first use). One pass appends each drawn row's value to its bin's bucket,
 * sized from the signal's own bin counts plus 8 standard deviations; if a bucket would overflow
 * (a subset far from a resample of the data) the call falls back to an exact two-pass counting
 * sort. Either way each bin's values are summed pairwise in row order and Y (0/1) is counted.
 */
export class BinnedEceWorkspace {
  private readonly gathered: Float64Array;
  private readonly picked: Uint32Array;
  private readonly counts: Int32Array;
  private readonly cursor: Int32Array;
  private readonly layouts = new WeakMap<CodedSignal, Buckets>();

  constructor(capacity: number, bins: number) {
    this.gathered = new Float64Array(Math.max(1, capacity));
    this.picked = new Uint32Array(Math.max(1, capacity));
    this.counts = new Int32Array(2 * bins);
    this.cursor = new Int32Array(bins);
  }

  private bucketsOf(signal: CodedSignal): Buckets {
    let b = this.layouts.get(signal);
    if (!b) {
      const low = (1 << signal.shift) - 1;
      const counts = new Int32Array(signal.bins);
      for (const code of signal.codes) counts[(code & low) >>> 1]++;
      b = Buckets.sized(counts, { tight: false });
      this.layouts.set(signal, b);
    }
    return b;
  }

  /** ECE over rows[0..m-1] (row indices of the coded signal; repeats allowed). NaN when m = 0. */
  ece(signal: CodedSignal, rows: Int32Array, m: number): number {
    if (m <= 0) return NaN;
    if (m > this.picked.length) throw new RangeError(`BinnedEceWorkspace: ${m} rows exceed its capacity ${this.picked.length}`);
    const buckets = this.bucketsOf(signal);
    buckets.reset();
    const { values, cursor: k, end: e, ones } = buckets;
    const { codes, table, shift } = signal;
    const low = (1 << shift) - 1;
    for (let j = 0; j < m; j++) {
      const code = codes[rows[j]];
      const b = (code & low) >>> 1;
      const p = k[b];
      if (p === e[b]) return this.eceTwoPass(signal, rows, m);
      values[p] = table[code >>> shift];
      k[b] = p + 1;
      ones[b] += code & 1;
    }
    return buckets.ece(m);
  }

  private eceTwoPass(signal: CodedSignal, rows: Int32Array, m: number): number {
    const { gathered, picked, counts, cursor } = this;
    const { codes, table, shift, bins } = signal;
    const low = (1 << shift) - 1;
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

/** Room for a bin of `count` rows: its count plus 8 standard deviations of resampling noise. */
export function bucketRoom(count: number, { tight }: { tight: boolean }): number {
  return tight ? count : count + Math.ceil(8 * Math.sqrt(count)) + 16;
}

/** Per-bin regions of one array, each with room for the bin's expected count plus slack. */
export class Buckets {
  constructor(
    readonly values: Float64Array,
    readonly start: Int32Array,
    readonly end: Int32Array,
    readonly cursor: Int32Array,
    readonly ones: Int32Array,
    /** numpy's pairwise sum of values[from..to) (a faster exact one may be given). */
    private readonly sum: (values: Float64Array, from: number, to: number) => number = pairwiseSum,
  ) {}

  /** Buckets in arrays of their own, one region per bin sized by `bucketRoom`. */
  static sized(counts: ArrayLike<number>, { tight }: { tight: boolean }): Buckets {
    const L = counts.length;
    const start = new Int32Array(L);
    const end = new Int32Array(L);
    let at = 0;
    for (let b = 0; b < L; b++) {
      start[b] = at;
      at += bucketRoom(counts[b], { tight });
      end[b] = at;
    }
    return new Buckets(new Float64Array(Math.max(1, at)), start, end, new Int32Array(L), new Int32Array(L));
  }

  reset(): void {
    this.cursor.set(this.start);
    this.ones.fill(0);
  }

  /** Σ over non-empty bins, in order, of (|bin|/m)·|accuracy − pairwise mean confidence|. */
  ece(m: number): number {
    if (m <= 0) return NaN;
    const { values, start, cursor, ones } = this;
    let ece = 0;
    for (let b = 0; b < start.length; b++) {
      const n = cursor[b] - start[b];
      if (n === 0) continue;
      const meanConf = this.sum(values, start[b], cursor[b]) / n;
      ece += (n / m) * Math.abs(ones[b] / n - meanConf);
    }
    return ece;
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

