/**
 * An interval for the population ECE (the paper's 10 equal-width bins) whose coverage is
 * measured (bench/coverage.bench.ts, docs/STATISTICS.md), a test of perfect calibration, and
 * consistency bands for reliability diagrams.
 *
 * Everything is conditional on the observed confidences (the design): the rows are taken as
 * given, and only the outcomes Y are random, each Y_i ~ Bernoulli(P(Y=1 | c_i)) independently.
 * The plug-in ECE depends on the outcomes only through each bin's count of correct answers, so a
 * simulated data set is one draw per bin (bin-sum.ts), whatever the number of questions.
 *
 * Interval (test inversion, after Bröcker & Smith's consistency resampling): a one-parameter
 * family of hypotheses H_t, under which a row of bin b is correct with probability
 * clip(c_i + t·g_b), g_b the bin's observed gap (accuracy − mean confidence). Each H_t has a true
 * ECE θ(t) (nondecreasing in t) and a simulated distribution of the plug-in ECE; H_t is kept when
 * the observed plug-in lies inside that distribution's central `level`. The interval is [the
 * smallest, the largest] θ(t) kept. The same uniforms serve every hypothesis (quantile coupling),
 * so neighbouring hypotheses are compared on the same draws.
 *
 * Test of perfect calibration: H_0 (t = 0, P(Y=1|c) = c), one-sided, large ECEs count against it:
 * p = (1 + #{simulated ECE ≥ observed}) / (1 + draws).
 */
import { pairwiseSum } from './pairwise';
import { equalWidthBinIndex, equalWidthEdges } from './binning';
import { eceEqualWidth } from './ece';
import { addTermsAtUniforms, binSumDistribution, countQuantile, EXACT_MAX, binomial, type CountDistribution } from './bin-sum';
import { defaultRng } from './rng';

export interface EceInferenceOptions {
  /** Equal-width bins (default 10, the paper's). */
  bins?: number;
  /** Simulated data sets per hypothesis (default 2000). */
  draws?: number;
  /** Seed of the one default_rng stream (default 7). */
  seed?: number;
  /** Coverage of the interval and the bands (default 0.95). */
  level?: number;
}

export interface EceInference {
  /** The paper's plug-in ECE on these rows, bit-exact with core/ece.ts. */
  ece: number;
  /** Interval for the population ECE at `level` (conditional on the confidences). */
  interval: [number, number];
  /** p-value of the test of perfect calibration (H0: P(Y=1|c) = c). */
  p: number;
  /** Stable id of the method. */
  method: string;
}

export interface ConsistencyBand {
  bin: number;
  count: number;
  /** Central `level` range of a perfectly calibrated model's bin accuracy; NaN for an empty bin. */
  lo: number;
  hi: number;
}

export const ECE_INFERENCE_METHOD = 'consistency-inversion';

const DEFAULTS = { bins: 10, draws: 2000, seed: 7, level: 0.95 };
/** Hypotheses on the first, even grid of θ; then each end is refined by bisection. */
const GRID = 24;
const REFINE = 10;

function resolve(o: EceInferenceOptions = {}) {
  return {
    bins: Math.max(1, Math.floor(o.bins ?? DEFAULTS.bins)),
    draws: Math.max(1, Math.floor(o.draws ?? DEFAULTS.draws)),
    seed: o.seed ?? DEFAULTS.seed,
    level: o.level ?? DEFAULTS.level,
  };
}

/** One non-empty bin: its rows' confidences sorted (with prefix sums), count, mean, correct answers. */
interface Bin {
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
function binRows(conf: ArrayLike<number>, y: ArrayLike<number>, n: number, L: number): Bin[] {
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
class Inverter {
  private readonly u: Float64Array[];
  private readonly order: Uint32Array[];
  private readonly stat: Float64Array;
  readonly observed: number;
  readonly direction: Float64Array;
  readonly tMax: number;

  constructor(private readonly bins: Bin[], readonly N: number, draws: number, seed: number, L: number) {
    const { u, order } = uniforms(seed, draws, L);
    this.u = bins.map((bin) => u[bin.index]);
    this.order = bins.map((bin) => order[bin.index]);
    this.stat = new Float64Array(draws);
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
    let th = 0;
    this.bins.forEach((bin, k) => {
      th += (bin.n / this.N) * Math.abs(shiftedSum(bin, t * this.direction[k]) / bin.n - bin.meanConf);
    });
    return th;
  }

  private distribution(k: number, t: number): CountDistribution {
    const bin = this.bins[k];
    const s = t * this.direction[k];
    if (bin.n <= EXACT_MAX) return binSumDistribution(Array.from(bin.sorted, (c) => c + s));
    return binomial(bin.n, Math.min(1, Math.max(0, shiftedSum(bin, s) / bin.n)));
  }

  /** Counts of simulated plug-in ECEs at least and at most the observed one under H_t. */
  tails(t: number): { ge: number; le: number } {
    let known = this.seen.get(t);
    if (!known) this.seen.set(t, (known = this.count(t)));
    return known;
  }

  private readonly seen = new Map<number, { ge: number; le: number }>();

  private count(t: number): { ge: number; le: number } {
    const { stat, N } = this;
    stat.fill(0);
    this.bins.forEach((bin, k) => {
      addTermsAtUniforms(this.distribution(k, t), this.u[k], this.order[k], stat, (count) => termOf(bin, count, N));
    });
    // Tolerance: the same bin counts give the same bits, but equal ECEs from other counts may not.
    const tol = 1e-12;
    let ge = 0, le = 0;
    for (const x of stat) {
      if (x >= this.observed - tol) ge++;
      if (x <= this.observed + tol) le++;
    }
    return { ge, le };
  }
}

export type Verdict = 'keep' | 'too-small-t' | 'too-large-t';

/** H_t is rejected when the observed plug-in lies in either tail (α/2 each) of its simulated ones. */
function verdictOf(inv: Inverter, draws: number, alpha: number): (t: number) => Verdict {
  return (t) => {
    const { ge, le } = inv.tails(t);
    if ((1 + ge) / (1 + draws) <= alpha / 2) return 'too-small-t';
    if ((1 + le) / (1 + draws) <= alpha / 2) return 'too-large-t';
    return 'keep';
  };
}

/** Test inversion over t: the interval of θ(t) kept, found on a grid then refined by bisection. */
function invert(inv: Inverter, draws: number, alpha: number): [number, number] {
  const verdict = verdictOf(inv, draws, alpha);
  // t at which θ reaches a target (θ nondecreasing in t), by bisection.
  const tAt = (target: number): number => {
    let a = 0, b = inv.tMax;
    for (let i = 0; i < 40; i++) {
      const m = (a + b) / 2;
      if (inv.theta(m) < target) a = m;
      else b = m;
    }
    return b;
  };
  const top = Math.min(inv.theta(inv.tMax), inv.observed + 4 / Math.sqrt(inv.N));
  const ts = Array.from({ length: GRID + 1 }, (_, k) => (k === 0 ? 0 : tAt((k / GRID) * top)));
  const vs = ts.map(verdict);
  // From a rejected t (a) and a kept one (b): the kept t nearest the edge between them.
  const bisect = (a: number, b: number): number => {
    for (let i = 0; i < REFINE; i++) {
      const m = (a + b) / 2;
      if (verdict(m) === 'keep') b = m;
      else a = m;
    }
    return b;
  };
  const first = vs.indexOf('keep');
  const last = vs.lastIndexOf('keep');
  if (first < 0) {
    // No grid point kept: look between the last 'too-small-t' and the first 'too-large-t'.
    const k = vs.indexOf('too-large-t');
    if (k <= 0) return k === 0 ? [0, 0] : [inv.theta(ts[GRID]), inv.theta(ts[GRID])];
    let a = ts[k - 1], b = ts[k], found = NaN;
    for (let i = 0; i < 30 && Number.isNaN(found); i++) {
      const m = (a + b) / 2;
      const v = verdict(m);
      if (v === 'keep') found = m;
      else if (v === 'too-small-t') a = m;
      else b = m;
    }
    if (Number.isNaN(found)) return [inv.theta(a), inv.theta(a)];
    const lo = bisect(a, found);
    const hi = bisect(b, found);
    return [inv.theta(lo), inv.theta(hi)];
  }
  const lo = first === 0 ? 0 : bisect(ts[first - 1], ts[first]);
  const hi = last === GRID ? ts[GRID] : bisect(ts[last + 1], ts[last]);
  return [inv.theta(lo), inv.theta(hi)];
}

function nanResult(ece: number): EceInference {
  return { ece, interval: [NaN, NaN], p: NaN, method: ECE_INFERENCE_METHOD };
}

/**
 * The plug-in ECE, its interval for the population ECE and the p-value of the test of perfect
 * calibration. Y is 0/1 (the caller validates correctness labels). Rows with a non-finite
 * confidence make the ECE non-finite, as in ece.ts, and then the interval and p are NaN; no rows:
 * everything NaN.
 */
export function eceInference(conf: ArrayLike<number>, y: ArrayLike<number>, options?: EceInferenceOptions): EceInference {
  const o = resolve(options);
  const N = Math.min(conf.length, y.length);
  const ece = eceEqualWidth(conf, y, o.bins);
  if (N === 0 || !Number.isFinite(ece)) return nanResult(ece);
  const bins = binRows(conf, y, N, o.bins);
  const inv = new Inverter(bins, N, o.draws, o.seed, o.bins);
  const p = (1 + inv.tails(0).ge) / (1 + o.draws);
  const interval = invert(inv, o.draws, 1 - o.level);
  return { ece, interval, p, method: ECE_INFERENCE_METHOD };
}

/**
 * The verdict on H_t at each given t, with its true ECE θ(t): what the interval is the hull of.
 * For tests and diagnostics; empty when the interval is NaN.
 */
export function eceHypotheses(
  conf: ArrayLike<number>,
  y: ArrayLike<number>,
  ts: readonly number[],
  options?: EceInferenceOptions,
): { t: number; theta: number; verdict: Verdict }[] {
  const o = resolve(options);
  const N = Math.min(conf.length, y.length);
  if (N === 0 || !Number.isFinite(eceEqualWidth(conf, y, o.bins))) return [];
  const inv = new Inverter(binRows(conf, y, N, o.bins), N, o.draws, o.seed, o.bins);
  const verdict = verdictOf(inv, o.draws, 1 - o.level);
  return ts.map((t) => ({ t, theta: inv.theta(t), verdict: verdict(t) }));
}

/** `eceInference` for each signal against the same outcomes (same options, same seed). */
export function eceInferenceBySignal(
  signals: Record<string, ArrayLike<number>>,
  y: ArrayLike<number>,
  options?: EceInferenceOptions,
): Record<string, EceInference> {
  const out: Record<string, EceInference> = {};
  for (const [name, conf] of Object.entries(signals)) out[name] = eceInference(conf, y, options);
  return out;
}

/**
 * Consistency bands (Bröcker & Smith 2007): for each bin, the central `level` range of the bin's
 * accuracy if the model were perfectly calibrated (P(Y=1|c) = c) at exactly these confidences,
 * from the quantiles of the bin's Poisson-binomial count (bin-sum.ts). No simulation, so no seed.
 * Empty bins, and bins holding a non-finite confidence, get NaN.
 */
export function consistencyBands(conf: ArrayLike<number>, options?: EceInferenceOptions): ConsistencyBand[] {
  const { bins: L, level } = resolve(options);
  const binOf = equalWidthBinIndex(conf, equalWidthEdges(L), conf.length);
  const rows: number[][] = Array.from({ length: L }, () => []);
  for (let i = 0; i < conf.length; i++) rows[binOf[i]].push(conf[i]);
  const alpha = 1 - level;
  return rows.map((c, bin) => {
    const count = c.length;
    if (count === 0 || c.some((x) => !Number.isFinite(x))) return { bin, count, lo: NaN, hi: NaN };
    const d = binSumDistribution(c);
    return { bin, count, lo: countQuantile(d, alpha / 2) / count, hi: countQuantile(d, 1 - alpha / 2) / count };
  });
}
