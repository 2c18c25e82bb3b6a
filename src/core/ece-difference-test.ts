/**
 * A one-sided test that one signal's population ECE is larger than another's, on the same
 * questions: H0: ECE(other) ≤ ECE(best) against H1: ECE(other) > ECE(best), both the paper's
 * binned ECE (10 equal-width bins).
 *
 * Why not the paired bootstrap of the plug-in difference: the plug-in ECE is biased upwards, by an
 * amount that depends on how a signal's questions fall into bins (a signal whose confidences all
 * sit in one bin is barely biased; one spread over six bins is biased about 2.3 times as much), so
 * two signals with the same population ECE do not have the same expected plug-in ECE. The bias
 * does not cancel in the difference, and measured (bench/selection.bench.ts) the bootstrap named a
 * constant, calibrated signal "better" than a spread-out calibrated one in 36–76% of data sets
 * (percentile) or 9–25% (basic interval).
 *
 * This test takes the same view as the headline interval (ece-inference.ts): the confidences are
 * held fixed and only the outcomes are random. The questions fall into joint cells (bin of the
 * best signal × bin of the other); a hypothesis gives every cell a probability of a correct answer,
 * and the plug-in difference depends on the outcomes only through each cell's count of correct
 * answers, drawn Binomial(cell size, cell probability). Hypotheses: the cells' probabilities are
 * raked (alternating additive adjustments, clipped to [0, 1]) so that each bin of the other signal
 * has accuracy mean confidence + λ·(its observed gap) and each bin of the best signal mean
 * confidence + μ·(its observed gap); the population ECEs are then λ·ECE(other) and μ·ECE(best).
 * H0 is composite, so the p-value is the largest over a set of null hypotheses: the boundary
 * λ·ECE(other) = μ·ECE(best) for μ ∈ {0, ½, 1, 3/2}, and the other signal perfectly calibrated
 * (λ = 0) with μ ∈ {½, 1, 3/2} (where the other signal's bias is largest). Each p is
 * (1 + #{simulated difference ≥ observed}) / (1 + draws).
 */
import { binomial } from './bin-sum';
import { equalWidthBinIndex, equalWidthEdges } from './binning';
import { defaultRng } from './rng';

export interface EceDifferenceOptions {
  /** Equal-width bins (default 10, the paper's). */
  bins?: number;
  /** Simulated data sets per null hypothesis (default 1000). */
  draws?: number;
  /** Seed of the one default_rng stream (default 7). */
  seed?: number;
}

export interface EceDifferenceTest {
  /** Plug-in ECE(other) − ECE(best) on these rows (sums of each bin, not the bit-exact pairwise means). */
  diff: number;
  /** One-sided p-value of H0: ECE(other) ≤ ECE(best). */
  p: number;
}

export const ECE_DIFFERENCE_METHOD = 'fixed-confidence-null-simulation';

/** The null hypotheses tried: (on the boundary, else λ = 0; μ). */
const NULLS: readonly [boundary: boolean, mu: number][] = [
  [true, 0], [true, 0.5], [true, 1], [true, 1.5],
  [false, 0.5], [false, 1], [false, 1.5],
];
const RAKE_ROUNDS = 60;

/**
 * The occupied joint cells (bin of the best signal × bin of the other), in ascending order of
 * bBin·L + oBin; empty cells are left out, so a report with many bins costs what its questions
 * fill, not L².
 */
interface Cells {
  L: number;
  N: number;
  /** Per occupied cell: its bins, size, correct answers, and the sum of each signal's confidences. */
  binB: Int32Array;
  binO: Int32Array;
  n: Float64Array;
  ones: Float64Array;
  sumB: Float64Array;
  sumO: Float64Array;
  /** Per bin, the sum of each signal's confidences. */
  confB: Float64Array;
  confO: Float64Array;
}

function cellsOf(best: ArrayLike<number>, other: ArrayLike<number>, y: ArrayLike<number>, bins: number): Cells {
  const N = y.length;
  const edges = equalWidthEdges(bins);
  const L = edges.length - 1;
  const bb = equalWidthBinIndex(best, edges, N);
  const bo = equalWidthBinIndex(other, edges, N);
  const index = new Map<number, number>();
  for (let i = 0; i < N; i++) index.set(bb[i] * L + bo[i], 0);
  const keys = Float64Array.from(index.keys()).sort();
  keys.forEach((J, k) => index.set(J, k));
  const K = keys.length;
  const c: Cells = {
    L, N,
    binB: Int32Array.from(keys, (J) => Math.floor(J / L)),
    binO: Int32Array.from(keys, (J) => J % L),
    n: new Float64Array(K), ones: new Float64Array(K), sumB: new Float64Array(K), sumO: new Float64Array(K),
    confB: new Float64Array(L), confO: new Float64Array(L),
  };
  for (let i = 0; i < N; i++) {
    const k = index.get(bb[i] * L + bo[i])!;
    c.n[k]++;
    c.ones[k] += y[i] === 1 ? 1 : 0;
    c.sumB[k] += best[i];
    c.sumO[k] += other[i];
  }
  // Bin sums in cell order (for a bin of either signal, its cells come in ascending order of the other bin).
  for (let k = 0; k < K; k++) {
    c.confB[c.binB[k]] += c.sumB[k];
    c.confO[c.binO[k]] += c.sumO[k];
  }
  return c;
}

/** Plug-in ECEs of both signals from the cells' counts of correct answers: Σ_bins |correct − Σ conf| / N. */
function eces(c: Cells, counts: ArrayLike<number>, hb: Float64Array, ho: Float64Array): { best: number; other: number } {
  hb.fill(0);
  ho.fill(0);
  for (let k = 0; k < counts.length; k++) {
    hb[c.binB[k]] += counts[k];
    ho[c.binO[k]] += counts[k];
  }
  let best = 0, other = 0;
  for (let a = 0; a < c.L; a++) {
    best += Math.abs(hb[a] - c.confB[a]);
    other += Math.abs(ho[a] - c.confO[a]);
  }
  return { best: best / c.N, other: other / c.N };
}

/** Cell probabilities whose bin accuracies are mean confidence + λ·gap (other) and + μ·gap (best). */
function rake(c: Cells, lambda: number, mu: number): Float64Array {
  const { L, n } = c;
  const K = n.length;
  const target = (bin: Int32Array, conf: Float64Array, scale: number) => {
    const m = new Float64Array(L), h = new Float64Array(L);
    for (let k = 0; k < K; k++) {
      m[bin[k]] += n[k];
      h[bin[k]] += c.ones[k];
    }
    return Float64Array.from(m, (mm, a) => (mm > 0 ? conf[a] / mm + scale * (h[a] / mm - conf[a] / mm) : NaN));
  };
  const tB = target(c.binB, c.confB, mu);
  const tO = target(c.binO, c.confO, lambda);
  // Start from the mean of the two signals' confidences in each cell.
  const p = Float64Array.from(n, (nn, k) => (c.sumB[k] + c.sumO[k]) / (2 * nn));
  const m = new Float64Array(L), s = new Float64Array(L);
  const adjust = (bin: Int32Array, t: Float64Array) => {
    m.fill(0);
    s.fill(0);
    for (let k = 0; k < K; k++) {
      m[bin[k]] += n[k];
      s[bin[k]] += n[k] * p[k];
    }
    for (let k = 0; k < K; k++) {
      const a = bin[k];
      if (!Number.isNaN(t[a])) p[k] = Math.min(1, Math.max(0, p[k] + (t[a] - s[a] / m[a])));
    }
  };
  for (let r = 0; r < RAKE_ROUNDS; r++) {
    adjust(c.binB, tB);
    adjust(c.binO, tO);
  }
  return p;
}

/** Inverse-CDF draws of Binomial(m, q) from one uniform each (binary search over the cumulative pmf). */
function sampler(m: number, q: number): (u: number) => number {
  const d = binomial(m, q);
  const cdf = new Float64Array(d.pmf.length);
  let run = 0;
  for (let j = 0; j < cdf.length; j++) cdf[j] = run += d.pmf[j];
  return (u) => {
    let lo = 0, hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] >= u) hi = mid;
      else lo = mid + 1;
    }
    return d.from + lo;
  };
}

export function eceDifferenceTest(
  best: ArrayLike<number>,
  other: ArrayLike<number>,
  y: ArrayLike<number>,
  options: EceDifferenceOptions = {},
): EceDifferenceTest {
  const N = Math.min(best.length, other.length, y.length);
  if (N === 0) return { diff: NaN, p: NaN };
  const draws = Math.max(1, Math.floor(options.draws ?? 1000));
  const c = cellsOf(best, other, y, Math.max(1, Math.floor(options.bins ?? 10)));
  const hb = new Float64Array(c.L), ho = new Float64Array(c.L);
  const observed = eces(c, c.ones, hb, ho);
  const diff = observed.other - observed.best;
  // A difference at or below 0 is no evidence against H0.
  if (!(diff > 0)) return { diff, p: 1 };
  const rng = defaultRng(options.seed ?? 7);
  const counts = new Float64Array(c.n.length);
  let p = 0;
  for (const [boundary, mu] of NULLS) {
    const lambda = boundary ? (mu * observed.best) / observed.other : 0;
    const prob = rake(c, lambda, mu);
    const draw = Array.from(prob, (q, J) => sampler(c.n[J], q));
    let atLeast = 0;
    for (let d = 0; d < draws; d++) {
      for (let k = 0; k < counts.length; k++) counts[k] = draw[k](rng.random());
      const sim = eces(c, counts, hb, ho);
      // A simulated difference equal to the observed one up to rounding counts as at least it.
      if (sim.other - sim.best >= diff - 1e-12) atLeast++;
    }
    p = Math.max(p, (1 + atLeast) / (1 + draws));
  }
  return { diff, p };
}
