/**
 * The inner loop of the paired bootstrap, fused: one replicate's Sem1 ECE, Sem2 ECE, their
 * low-margin versions and mean(Sem1 − Sem2) in ONE pass over the drawn rows, with every buffer
 * allocated once. The bootstrap spends almost all its time here (40,000 rows × 1000 replicates).
 *
 * Exactness is kept: each bin's values are appended in row order and summed with numpy's
 * pairwise scheme; Y is 0/1, so per-bin sums of Y are exact counts; Sem1 − Sem2 is recomputed
 * from the exact table values, the same double as the caller's subtraction.
 *
 * Speed: drawn rows are random, so the cost is memory traffic and dependency chains. Each row's
 * Sem1 code, Sem2 code, Y and low-margin flag are interleaved in one Uint32Array (8 bytes per
 * row): a drawn row costs one cache line instead of four scattered reads. Values go straight
 * into per-bin buckets sized from the original bin counts plus 8 standard deviations of
 * resampling noise, so no counting pass is needed; in the (≈1e-15) event a bucket fills up the
 * replicate is redone with an exact two-pass counting sort, so the result never depends on it.
 *
 * Where WebAssembly runs (everywhere but under a CSP that forbids it), the fill is the same loop
 * in a small module built for the data set (paired-kernel-wasm.ts), the rows are drawn straight
 * into its memory, extra signals (e.g. verbalized, for its ECE interval) are filled in the same
 * pass, and the pairwise sums run in WebAssembly SIMD (pairwise-wasm.ts). Tests check every one
 * of these against the plain JS loop bit for bit.
 */
import { BinnedEceWorkspace, Buckets, bucketRoom, eceOfGathered, startCursors, type CodedSignal } from './ece-workspace';
import { wasmFill, type WasmFill } from './paired-kernel-wasm';
import { pairwiseSumWasm, type WasmPairwiseSum } from './pairwise-wasm';
import { pairwiseSum } from './pairwise';

export interface PairedReplicate {
  dConf: number;
  eceSem1: number;
  eceSem2: number;
  /** NaN when fewer than `minLow` low-margin rows were drawn. */
  eceSem1Lo: number;
  eceSem2Lo: number;
  nLo: number;
}

export interface PairedKernelOptions {
  /** Buckets with no slack, so the fallback runs (for tests). */
  tight?: boolean;
  /** The WebAssembly fill when available (tests turn it off to compare with the JS loop). */
  useWasm?: boolean;
  /** More signals whose ECE each replicate also gives (in `extraEce`), e.g. verbalized. */
  extras?: readonly CodedSignal[];
}

export class PairedKernel {
  private readonly extras: readonly CodedSignal[];
  /** Per row r: [2r] = Sem1 code (value, bin, Y in bit 0); [2r+1] = Sem2 code with the low-margin flag in bit 0. */
  private readonly packed: Uint32Array;
  private readonly picked1: Uint32Array;
  private readonly picked2: Uint32Array;
  private readonly diffs: Float64Array;
  private readonly g1: Float64Array;
  private readonly g2: Float64Array;
  private readonly g1Lo: Float64Array;
  private readonly g2Lo: Float64Array;
  private readonly counts: Int32Array[];
  private readonly cursors: Int32Array[];
  private readonly buckets: Buckets[];
  private readonly wasm: WasmFill | null;
  /** Pairwise sum of the first m differences of the last fill. */
  private readonly sumDiffs: (m: number) => number;
  private readonly extraWorkspace: BinnedEceWorkspace | null;
  /** ECE of each extra signal over the last replicate's rows. */
  readonly extraEce: Float64Array;

  constructor(
    private readonly s1: CodedSignal,
    private readonly s2: CodedSignal,
    /** 1 for rows with Δ below the threshold. */
    low: Uint8Array,
    private readonly minLow: number,
    options: PairedKernelOptions = {},
  ) {
    const { tight = false, useWasm = true } = options;
    const extras = options.extras ?? [];
    this.extras = extras;
    if (s1.bins !== s2.bins || s1.shift !== s2.shift) throw new RangeError('PairedKernel: signals binned differently');
    const N = s1.codes.length;
    this.packed = new Uint32Array(2 * N);
    for (let r = 0; r < N; r++) {
      this.packed[2 * r] = s1.codes[r];
      this.packed[2 * r + 1] = ((s2.codes[r] >>> 1) << 1) | low[r];
    }
    const n = Math.max(1, N);
    this.picked1 = new Uint32Array(n);
    this.picked2 = new Uint32Array(n);
    this.diffs = new Float64Array(n);
    this.g1 = new Float64Array(n);
    this.g2 = new Float64Array(n);
    this.g1Lo = new Float64Array(n);
    this.g2Lo = new Float64Array(n);
    const L = s1.bins;
    this.counts = [0, 1, 2, 3].map(() => new Int32Array(2 * L));
    this.cursors = [0, 1, 2, 3].map(() => new Int32Array(L));
    const lowMask = (1 << s1.shift) - 1;
    const c = [0, 1, 2, 3].map(() => new Int32Array(L));
    for (const x of extras) {
      if (x.bins !== L || x.shift !== s1.shift || x.codes.length !== N) throw new RangeError('PairedKernel: extra signal binned differently');
      const counts = new Int32Array(L);
      for (let r = 0; r < N; r++) counts[(x.codes[r] & lowMask) >>> 1]++;
      c.push(counts);
    }
    this.extraEce = new Float64Array(extras.length);
    for (let r = 0; r < N; r++) {
      const b1 = (s1.codes[r] & lowMask) >>> 1, b2 = (s2.codes[r] & lowMask) >>> 1;
      c[0][b1]++;
      c[1][b2]++;
      if (low[r] === 1) {
        c[2][b1]++;
        c[3][b2]++;
      }
    }
    this.wasm = tight || !useWasm ? null : wasmFill({
      N, bins: L, shift: s1.shift, packed: this.packed, t1: s1.table, t2: s2.table,
      extras: extras.map((x) => ({ codes: x.codes, table: x.table })),
      capacity: c.reduce((sum, counts) => sum + counts.reduce((a, n) => a + bucketRoom(n, { tight: false }), 0), 0),
    });
    const wasmSum = this.wasm ? pairwiseSumWasm(this.wasm.memory) : null;
    this.sumDiffs = this.wasm && wasmSum
      ? (m) => wasmSum(this.wasm!.diffsAt, m)
      : (m) => pairwiseSum(this.wasm ? this.wasm.diffs : this.diffs, 0, m);
    this.buckets = this.wasm ? sharedBuckets(c, this.wasm, wasmSum) : c.map((counts) => Buckets.sized(counts, { tight }));
    this.extraWorkspace = extras.length > 0 ? new BinnedEceWorkspace(N, L) : null;
  }

  /**
   * A buffer for the drawn rows that `run` reads without copying (it lives in the WebAssembly
   * memory when the fast fill is used), or null.
   */
  get rowsBuffer(): Int32Array | null {
    return this.wasm?.rows ?? null;
  }

  /** One replicate over rows[0..m-1], written into `out`. */
  run(rows: Int32Array, m: number, out: PairedReplicate): void {
    const [B1, B2, B1Lo, B2Lo] = this.buckets;
    for (const b of this.buckets) b.reset();
    const wasm = this.wasm;
    let mLo: number;
    if (wasm) {
      if (rows !== wasm.rows) wasm.rows.set(rows.subarray(0, m));
      const { counters } = wasm;
      const L = this.s1.bins;
      this.buckets.forEach((b, s) => {
        for (let k = 0; k < L; k++) {
          counters[2 * (s * L + k)] = b.start[k];
          counters[2 * (s * L + k) + 1] = 0;
        }
      });
      mLo = wasm.fill(m);
      this.buckets.forEach((b, s) => {
        for (let k = 0; k < L; k++) {
          b.cursor[k] = counters[2 * (s * L + k)];
          b.ones[k] = counters[2 * (s * L + k) + 1];
        }
      });
    } else {
      mLo = fillBuckets(rows, m, this.packed, this.s1.table, this.s2.table, this.s1.shift, this.diffs, B1, B2, B1Lo, B2Lo);
    }
    if (mLo < 0 || !wasm) this.extrasApart(rows, m);
    else for (let k = 0; k < this.extras.length; k++) this.extraEce[k] = this.buckets[4 + k].ece(m);
    if (mLo < 0) return this.runTwoPass(rows, m, out);
    out.dConf = m > 0 ? this.sumDiffs(m) / m : NaN;
    out.nLo = mLo;
    out.eceSem1 = B1.ece(m);
    out.eceSem2 = B2.ece(m);
    const withLow = mLo >= this.minLow;
    out.eceSem1Lo = withLow ? B1Lo.ece(mLo) : NaN;
    out.eceSem2Lo = withLow ? B2Lo.ece(mLo) : NaN;
  }

  /** The extra signals' ECEs one by one (JS loop, or after a full bucket): the same bits. */
  private extrasApart(rows: Int32Array, m: number): void {
    for (let k = 0; k < this.extras.length; k++) this.extraEce[k] = this.extraWorkspace!.ece(this.extras[k], rows, m);
  }

  /** The exact fallback: a stable counting sort in two passes (no bucket can overflow). */
  private runTwoPass(rows: Int32Array, m: number, out: PairedReplicate): void {
    const packed = this.packed, picked1 = this.picked1, picked2 = this.picked2, diffs = this.diffs;
    const g1 = this.g1, g2 = this.g2, g1Lo = this.g1Lo, g2Lo = this.g2Lo;
    const t1 = this.s1.table, t2 = this.s2.table;
    const shift = this.s1.shift, L = this.s1.bins;
    const lowMask = (1 << shift) - 1;
    const n1 = this.counts[0], n2 = this.counts[1], n1Lo = this.counts[2], n2Lo = this.counts[3];
    const k1 = this.cursors[0], k2 = this.cursors[1], k1Lo = this.cursors[2], k2Lo = this.cursors[3];
    n1.fill(0); n2.fill(0); n1Lo.fill(0); n2Lo.fill(0);
    let mLo = 0;
    for (let j = 0; j < m; j++) {
      const r = rows[j];
      const a = packed[2 * r];
      const w = packed[2 * r + 1];
      // Sem2's own bit 0 carries the low flag; Y is Sem1's bit 0.
      const b = w - (w & 1) + (a & 1);
      picked1[j] = a;
      picked2[j] = w;
      diffs[j] = t1[a >>> shift] - t2[b >>> shift];
      n1[a & lowMask]++;
      n2[b & lowMask]++;
      if ((w & 1) === 1) {
        n1Lo[a & lowMask]++;
        n2Lo[b & lowMask]++;
        mLo++;
      }
    }
    out.dConf = m > 0 ? pairwiseSum(diffs, 0, m) / m : NaN;
    out.nLo = mLo;
    startCursors(n1, k1, L); startCursors(n2, k2, L); startCursors(n1Lo, k1Lo, L); startCursors(n2Lo, k2Lo, L);
    const withLow = mLo >= this.minLow;
    for (let j = 0; j < m; j++) {
      const a = picked1[j], w = picked2[j];
      const ba = (a & lowMask) >>> 1, bb = (w & lowMask) >>> 1;
      const va = t1[a >>> shift], vb = t2[w >>> shift];
      g1[k1[ba]++] = va;
      g2[k2[bb]++] = vb;
      if (withLow && (w & 1) === 1) {
        g1Lo[k1Lo[ba]++] = va;
        g2Lo[k2Lo[bb]++] = vb;
      }
    }
    out.eceSem1 = eceOfGathered(g1, n1, L, m);
    out.eceSem2 = eceOfGathered(g2, n2, L, m);
    out.eceSem1Lo = withLow ? eceOfGathered(g1Lo, n1Lo, L, mLo) : NaN;
    out.eceSem2Lo = withLow ? eceOfGathered(g2Lo, n2Lo, L, mLo) : NaN;
  }
}

/**
 * The sets' buckets over the WebAssembly memory's one values region; their cursors and counts
 * of ones are copied from the module's counters after each fill (a few dozen numbers).
 */
function sharedBuckets(counts: Int32Array[], wasm: WasmFill, wasmSum: WasmPairwiseSum | null): Buckets[] {
  const sum = wasmSum ? (_: Float64Array, from: number, to: number) => wasmSum(wasm.valuesAt + 8 * from, to - from) : pairwiseSum;
  const L = counts[0].length;
  let at = 0;
  return counts.map((c, s) => {
    const start = new Int32Array(L);
    const end = new Int32Array(L);
    for (let b = 0; b < L; b++) {
      start[b] = at;
      at += bucketRoom(c[b], { tight: false });
      end[b] = at;
      wasm.end[2 * (s * L + b)] = at;
    }
    return new Buckets(wasm.values, start, end, new Int32Array(L), new Int32Array(L), sum);
  });
}

/**
 * The hot loop, kept a small standalone function so the engine optimises it on its own.
 * Returns the number of low-margin rows drawn, or −1 when a bucket is full.
 */
function fillBuckets(
  rows: Int32Array, m: number, packed: Uint32Array, t1: Float64Array, t2: Float64Array, shift: number,
  diffs: Float64Array, B1: Buckets, B2: Buckets, B1Lo: Buckets, B2Lo: Buckets,
): number {
  const lowMask = (1 << shift) - 1;
  const v1 = B1.values, k1 = B1.cursor, e1 = B1.end, o1 = B1.ones;
  const v2 = B2.values, k2 = B2.cursor, e2 = B2.end, o2 = B2.ones;
  const v3 = B1Lo.values, k3 = B1Lo.cursor, e3 = B1Lo.end, o3 = B1Lo.ones;
  const v4 = B2Lo.values, k4 = B2Lo.cursor, e4 = B2Lo.end, o4 = B2Lo.ones;
  let mLo = 0;
  for (let j = 0; j < m; j++) {
    const r = rows[j];
    const a = packed[2 * r];
    const w = packed[2 * r + 1];
    const y = a & 1;
    const ba = (a & lowMask) >>> 1, bb = (w & lowMask) >>> 1;
    const va = t1[a >>> shift], vb = t2[w >>> shift];
    diffs[j] = va - vb;
    const p1 = k1[ba], p2 = k2[bb];
    if (p1 === e1[ba] || p2 === e2[bb]) return -1;
    v1[p1] = va; k1[ba] = p1 + 1; o1[ba] += y;
    v2[p2] = vb; k2[bb] = p2 + 1; o2[bb] += y;
    if ((w & 1) === 1) {
      const p3 = k3[ba], p4 = k4[bb];
      if (p3 === e3[ba] || p4 === e4[bb]) return -1;
      v3[p3] = va; k3[ba] = p3 + 1; o3[ba] += y;
      v4[p4] = vb; k4[bb] = p4 + 1; o4[bb] += y;
      mLo++;
    }
  }
  return mLo;
}
