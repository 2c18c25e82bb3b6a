/**
 * The simulator behind the ECE interval (ece-inference.ts): the rows binned once, the family of
 * hypotheses H_t (in bin b a row is correct with probability clip(c_i + t·d_b), d_b the shrunk
 * observed gaps) with each one's true ECE θ(t), and the plug-in ECE simulated under H_t from bin
 * counts (bin-sum.ts), on uniforms shared by every hypothesis.
 */
import { pairwiseSum } from './pairwise';
import { equalWidthBinIndex, equalWidthEdges } from './binning';
import { addTermsAtUniforms, binSumDistribution, EXACT_MAX, binomial, type CountDistribution } from './bin-sum';
import { defaultRng } from './rng';

/** One non-empty bin: its rows' confidences sorted (with prefix sums), count, mean, correct answers. */
export interface Bin {
  index: number;
  n: number;
  meanConf: number;
  ones: number;
  gap: number;
  sorted: Float64Array;
  prefix: Float64Array;
}

function lowerBound(a: Float64Array, x: number): number {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Σ clip(c_i + s, 0, 1) over the bin, from the sorted confidences and their prefix sums. */
function shiftedSum(bin: Bin, s: number): number {
  const j0 = lowerBound(bin.sorted, -s);
  const j1 = lowerBound(bin.sorted, 1 - s);
  return bin.prefix[j1] - bin.prefix[j0] + (j1 - j0) * s + (bin.n - j1);
}

/** Bins of the rows by the paper's edges; each bin's mean confidence is the pairwise mean, as in ece.ts. */
export function binRows(conf: ArrayLike<number>, y: ArrayLike<number>, n: number, L: number): Bin[] {
  const binOf = equalWidthBinIndex(conf, equalWidthEdges(L), n);
  // A counting sort by bin that keeps the input order within each bin (for the pairwise mean).
  const start = new Int32Array(L + 1);
  for (let i = 0; i < n; i++) start[binOf[i] + 1]++;
  for (let b = 0; b < L; b++) start[b + 1] += start[b];
  const cursor = start.slice(0, L);
  const gathered = new Float64Array(n);
  const ones = new Int32Array(L);
  for (let i = 0; i < n; i++) {
    const b = binOf[i];
    gathered[cursor[b]++] = conf[i];
    if (y[i] === 1) ones[b]++;
  }
  const out: Bin[] = [];
  for (let index = 0; index < L; index++) {
    const m = start[index + 1] - start[index];
    if (m === 0) continue;
    const meanConf = pairwiseSum(gathered, start[index], start[index + 1]) / m;
    const sorted = gathered.slice(start[index], start[index + 1]).sort();
    const prefix = new Float64Array(m + 1);
    for (let j = 0; j < m; j++) prefix[j + 1] = prefix[j] + sorted[j];
    out.push({ index, n: m, meanConf, ones: ones[index], gap: ones[index] / m - meanConf, sorted, prefix });
  }
  return out;
}

/**
 * The plug-in ECE of binned rows whose outcomes are all 0 or 1: the same bits as ece.ts's
 * eceEqualWidth (its bin means are these pairwise sums in row order, its sums of Y these exact
 * counts, its terms these, summed in bin order), so the rows need not be binned twice. NaN with no rows.
 */
export function eceOfBins(bins: readonly Bin[], N: number): number {
  if (N === 0) return NaN;
  let ece = 0;
  for (const bin of bins) ece += termOf(bin, bin.ones, N);
  return ece;
}

/** Whether every outcome is 0 or 1 (what `eceOfBins` needs). */
export function zeroOneOutcomes(y: ArrayLike<number>, n: number): boolean {
  for (let i = 0; i < n; i++) if (y[i] !== 0 && y[i] !== 1) return false;
  return true;
}

/** The plug-in statistic from bin counts, summed in bin order (the simulated and observed alike). */
function termOf(bin: Bin, k: number, N: number): number {
  return (bin.n / N) * Math.abs(k / bin.n - bin.meanConf);
}

/**
 * The bins' gaps shrunk toward their weighted mean (empirical Bayes, normal approximation): bin b's
 * observed gap has sampling variance v_b = a_b(1 − a_b)/n_b; the spread of the true gaps τ² is
 * estimated by the weighted variance of the observed gaps less the mean v_b; each gap moves toward
 * the mean by v_b/(v_b + τ²).
 */
export function shrunkGaps(bins: readonly Bin[], N: number): Float64Array {
  let mean = 0;
  for (const b of bins) mean += (b.n / N) * b.gap;
  let spread = 0, noise = 0;
  const v = bins.map((b) => {
    const a = Math.min(Math.max(b.ones / b.n, 0.5 / b.n), 1 - 0.5 / b.n);
    return (a * (1 - a)) / b.n;
  });
  bins.forEach((b, k) => {
    spread += (b.n / N) * (b.gap - mean) ** 2;
    noise += (b.n / N) * v[k];
  });
  const tau2 = Math.max(0, spread - noise);
  return Float64Array.from(bins, (b, k) => mean + (tau2 / (tau2 + v[k])) * (b.gap - mean));
}

interface Uniforms { key: string; u: Float64Array[]; order: Uint32Array[] }
let lastUniforms: Uniforms | null = null;

/**
 * L × draws uniforms from default_rng(seed), bin-major, drawn for every bin (empty ones too) so a
 * bin's draws do not depend on which other bins are occupied, with each bin's sort order. They
 * depend only on (seed, draws, L), so the last set is kept for the next signal.
 */
function uniforms(seed: number, draws: number, L: number): Uniforms {
  const key = `${seed}/${draws}/${L}`;
  if (lastUniforms?.key === key) return lastUniforms;
  const rng = defaultRng(seed);
  const u: Float64Array[] = [];
  const order: Uint32Array[] = [];
  for (let b = 0; b < L; b++) {
    // Stratified (Latin hypercube): draw d lies in the stratum [π(d), π(d) + 1)/draws of a random
    // permutation π, so each bin's simulated counts follow its distribution almost exactly and
    // only the pairing across bins is random: less Monte Carlo error in the tails at the same cost.
    const strata = rng.permutation(draws);
    const x = new Float64Array(draws);
    const sorted = new Uint32Array(draws);
    for (let d = 0; d < draws; d++) {
      x[d] = (strata[d] + rng.random()) / draws;
      sorted[strata[d]] = d;
    }
    u.push(x);
    order.push(sorted);
  }
  return (lastUniforms = { key, u, order });
}

/** Simulator for one data set's hypotheses: uniforms drawn once, shared by every hypothesis. */
export class Inverter {
  private readonly u: Float64Array[];
  private readonly order: Uint32Array[];
  private readonly stat: Float64Array;
  /** Room for the largest bin's binomial pmf (distribution's buffer). */
  private readonly pmf: Float64Array;
  readonly observed: number;
  readonly direction: Float64Array;
  readonly tMax: number;

  constructor(private readonly bins: Bin[], readonly N: number, draws: number, seed: number, L: number) {
    const { u, order } = uniforms(seed, draws, L);
    this.u = bins.map((bin) => u[bin.index]);
    this.order = bins.map((bin) => order[bin.index]);
    this.stat = new Float64Array(draws);
    let largest = 0;
    for (const bin of bins) largest = Math.max(largest, bin.n);
    this.pmf = new Float64Array(largest + 1);
    let obs = 0;
    for (const bin of bins) obs += termOf(bin, bin.ones, N);
    this.observed = obs;
    // Direction of the family: the observed gaps shrunk toward their mean (the raw gaps spread
    // wider than the true ones, and that made the upper end too low: 83–92% coverage where the
    // true gap is the same in every bin); with no gap at all (every bin exactly calibrated),
    // confidences too extreme, the usual failure of model confidences (each bin's accuracy moves
    // toward 1/2, the side where it has room: a bin at confidence 0 can only move up).
    const anyGap = bins.some((b) => b.gap !== 0);
    const shrunk = anyGap ? shrunkGaps(bins, N) : null;
    // Gaps that shrink to exactly nothing (their mean is 0 and they spread no more than noise) would
    // leave the family a single point: the raw gaps then give the direction.
    this.direction = !shrunk
      ? Float64Array.from(bins, (b) => (b.meanConf < 0.5 ? 1 : -1))
      : shrunk.some((d) => d !== 0) ? shrunk : Float64Array.from(bins, (b) => b.gap);
    let minAbs = Infinity;
    for (const g of this.direction) if (g !== 0) minAbs = Math.min(minAbs, Math.abs(g));
    // Beyond tMax every row of every bin is clipped to 0 or 1: θ stops growing.
    this.tMax = minAbs === Infinity ? 0 : 1 / minAbs + 1;
  }

  /** True ECE of H_t given the confidences. */
  theta(t: number): number {
    if (t === 0) return 0;
    const { bins, direction, N } = this;
    let th = 0;
    for (let k = 0; k < bins.length; k++) {
      const bin = bins[k];
      th += (bin.n / N) * Math.abs(shiftedSum(bin, t * direction[k]) / bin.n - bin.meanConf);
    }
    return th;
  }

  private distribution(k: number, t: number): CountDistribution {
    const bin = this.bins[k];
    const s = t * this.direction[k];
    if (bin.n <= EXACT_MAX) return binSumDistribution(Array.from(bin.sorted, (c) => c + s));
    // The pmf is read by `simulate` before the next bin's is built, so one buffer serves every call.
    return binomial(bin.n, Math.min(1, Math.max(0, shiftedSum(bin, s) / bin.n)), this.pmf);
  }

  /** Counts of simulated plug-in ECEs at least and at most the observed one under H_t. */
  tails(t: number): { ge: number; le: number } {
    let known = this.seen.get(t);
    if (!known) this.seen.set(t, (known = this.count(t, this.observed)));
    return known;
  }

  private readonly seen = new Map<number, { ge: number; le: number }>();

  /** The simulated plug-in ECEs under H_t (in a buffer that the next call overwrites). */
  simulate(t: number): Float64Array {
    const { stat, N, bins } = this;
    stat.fill(0);
    for (let k = 0; k < bins.length; k++) {
      const bin = bins[k];
      addTermsAtUniforms(this.distribution(k, t), this.u[k], this.order[k], stat, (count) => termOf(bin, count, N));
    }
    return stat;
  }

  /** How many simulated plug-in ECEs under H_t are at least / at most `reference`. */
  count(t: number, reference: number): { ge: number; le: number } {
    // Tolerance: the same bin counts give the same bits, but equal ECEs from other counts may not.
    const tol = 1e-12;
    const stat = this.simulate(t);
    const lo = reference - tol, hi = reference + tol;
    let ge = 0, le = 0;
    for (let d = 0; d < stat.length; d++) {
      const x = stat[d];
      if (x >= lo) ge++;
      if (x <= hi) le++;
    }
    return { ge, le };
  }
}
