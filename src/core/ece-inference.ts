/**
 * An interval for the population ECE (the paper's 10 equal-width bins) whose coverage is
 * measured (bench/coverage.bench.ts, docs/STATISTICS.md), a test of perfect calibration, and
 * consistency bands for reliability diagrams.
 *
 * Everything is conditional on the observed confidences (the design): the rows are taken as
 * given, and only the outcomes Y are random, each Y_i ~ Bernoulli(P(Y=1 | c_i)) independently.
 * The plug-in ECE depends on the outcomes only through each bin's count of correct answers, so a
 * simulated data set is one draw per bin (bin-sum.ts), whatever the number of questions. The
 * binning, the family of hypotheses and the simulator are in ece-hypotheses.ts; this file searches
 * the family and states the results.
 *
 * Interval (test inversion, after Bröcker & Smith's consistency resampling): a one-parameter
 * family of hypotheses H_t, under which a row of bin b is correct with probability
 * clip(c_i + t·d_b), d_b the bin's observed gap (accuracy − mean confidence) shrunk toward the
 * gaps' mean by empirical Bayes (raw gaps spread wider than true ones). Each H_t has a true
 * ECE θ(t) (nondecreasing in t) and a simulated distribution of the plug-in ECE; H_t is kept when
 * the observed plug-in lies inside that distribution's central `level`. The interval is [the
 * smallest, the largest] θ(t) kept. The same uniforms serve every hypothesis (quantile coupling),
 * so neighbouring hypotheses are compared on the same draws.
 *
 * Test of perfect calibration: H_0 (t = 0, P(Y=1|c) = c), one-sided, large ECEs count against it:
 * p = (1 + #{simulated ECE ≥ observed}) / (1 + draws).
 */
import { equalWidthBinIndex, equalWidthEdges } from './binning';
import { eceEqualWidth } from './ece';
import { binSumDistribution, countQuantile } from './bin-sum';
import { binRows, eceOfBins, Inverter, zeroOneOutcomes } from './ece-hypotheses';

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

/**
 * The upper end when the observed plug-in is too small even for perfect calibration, so that no
 * H_t is kept (about 2.5% of data sets from a calibrated model). Plain inversion would give the
 * point [0, 0], a certainty the data do not have. Instead the upper end is the one a typical
 * calibrated data set would get: the inversion's upper end with the observed plug-in replaced by
 * the median of its simulated values under H_0 (the expected limit of power-constrained limits,
 * Cowan, Cranmer, Gross & Vitells 2011). The result contains [0, 0], so coverage can only gain.
 */
function tooGoodUpperEnd(inv: Inverter, ts: readonly number[], draws: number, alpha: number): number {
  const null0 = inv.simulate(0).slice().sort();
  const median = null0[(null0.length - 1) >> 1];
  const kept = (t: number) => (1 + inv.count(t, median).le) / (1 + draws) > alpha / 2;
  let k = 0;
  while (k < ts.length - 1 && kept(ts[k + 1])) k++;
  if (k === ts.length - 1) return inv.theta(ts[k]);
  let a = ts[k], b = ts[k + 1];
  for (let i = 0; i < REFINE; i++) {
    const m = (a + b) / 2;
    if (kept(m)) a = m;
    else b = m;
  }
  return inv.theta(a);
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
    if (k === 0) return [0, tooGoodUpperEnd(inv, ts, draws, alpha)];
    if (k < 0) return [inv.theta(ts[GRID]), inv.theta(ts[GRID])];
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
  if (N === 0) return nanResult(eceEqualWidth(conf, y, o.bins));
  const bins = binRows(conf, y, N, o.bins);
  // The bins give the plug-in ECE bit for bit when Y is 0/1 (ece-hypotheses.ts): one binning, not two.
  const ece = zeroOneOutcomes(y, N) ? eceOfBins(bins, N) : eceEqualWidth(conf, y, o.bins);
  if (!Number.isFinite(ece)) return nanResult(ece);
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

/**
 * The interval at each of several levels from one set of simulations (the hypotheses' simulated
 * plug-ins do not depend on the level, only the verdicts do), each equal to what `eceInference`
 * gives at that level with the same seed and draws. For a test that needs the level at which two
 * intervals part (core/ece-difference-inference.ts).
 */
export function eceIntervalsAtLevels(
  conf: ArrayLike<number>,
  y: ArrayLike<number>,
  levels: readonly number[],
  options?: Omit<EceInferenceOptions, 'level'>,
): [number, number][] {
  const o = resolve(options);
  const N = Math.min(conf.length, y.length);
  if (N === 0 || !Number.isFinite(eceEqualWidth(conf, y, o.bins))) return levels.map(() => [NaN, NaN]);
  const inv = new Inverter(binRows(conf, y, N, o.bins), N, o.draws, o.seed, o.bins);
  return levels.map((level) => invert(inv, o.draws, 1 - level));
}
