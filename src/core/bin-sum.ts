/**
 * The distribution of one bin's number of correct answers, S = Σ Y_i over the bin's rows, when
 * each Y_i is an independent Bernoulli(p_i): a Poisson-binomial. The ECE inference
 * (ece-inference.ts) and the consistency bands need its quantiles, and the plug-in ECE depends on
 * the outcomes only through these sums, so simulating a data set costs one draw per bin, not one
 * per row.
 *
 * Exact for small bins (the O(m²) convolution, m ≤ EXACT_MAX rows); for larger bins the binomial
 * with the same mean, Binomial(m, p̄). Its variance m·p̄(1−p̄) exceeds the Poisson-binomial's
 * Σ p_i(1−p_i) by Σ (p_i − p̄)², at most m·0.05² inside a bin of width 0.1, against m·p̄(1−p̄): a
 * relative excess below 2% for p̄ in [0.15, 0.85], so the simulated spread is, if anything, a
 * little wider than the truth (conservative).
 */

/** Bins with at most this many rows get the exact Poisson-binomial. */
export const EXACT_MAX = 64;

/** Probabilities of S = from, from+1, …, from + pmf.length − 1 (mass outside is below 1e-16). */
export interface CountDistribution {
  from: number;
  pmf: Float64Array;
}

/** Exact Poisson-binomial of the given success probabilities (each clipped to [0, 1]). */
export function poissonBinomial(p: ArrayLike<number>): CountDistribution {
  const m = p.length;
  const f = new Float64Array(m + 1);
  f[0] = 1;
  for (let i = 0; i < m; i++) {
    const q = Math.min(1, Math.max(0, p[i]));
    for (let k = i + 1; k >= 1; k--) f[k] = f[k] * (1 - q) + f[k - 1] * q;
    f[0] *= 1 - q;
  }
  return { from: 0, pmf: f };
}

/** The window `binomial` lays its pmf out on: the mode ± 10 standard deviations (and 12). */
function binomialWindow(m: number, p: number): { mode: number; lo: number; hi: number } {
  const mode = Math.min(m, Math.floor((m + 1) * p));
  // 10 standard deviations hold far more than 1 − 1e-18 (the ratio stops the walk first).
  const reach = Math.ceil(10 * Math.sqrt(m * p * (1 - p))) + 12;
  return { mode, lo: Math.max(0, mode - reach), hi: Math.min(m, mode + reach) };
}

/**
 * Binomial(m, p) on the window of counts that carries all but about 1e-17 of its mass: the pmf
 * is built by its ratio recurrence outward from the mode, then normalised (no log-gamma needed).
 * `into` (at least m + 1 long) holds the pmf instead of a new array, for a caller
 * that reads it before the next call (the ECE inference builds thousands per data set).
 */
export function binomial(m: number, p: number, into?: Float64Array): CountDistribution {
  if (!(p > 0) || m === 0) return { from: 0, pmf: Float64Array.of(1) };
  if (p >= 1) return { from: m, pmf: Float64Array.of(1) };
  const { mode, lo, hi } = binomialWindow(m, p);
  const odds = p / (1 - p);
  const tiny = 1e-18;
  // Every entry of the window returned is written below, so a reused buffer needs no clearing.
  const pmf = into ? into.subarray(0, hi - lo + 1) : new Float64Array(hi - lo + 1);
  pmf[mode - lo] = 1;
  let from = lo, to = hi;
  for (let k = mode, v = 1; k < hi; k++) {
    v *= ((m - k) / (k + 1)) * odds;
    pmf[k + 1 - lo] = v;
    if (v < tiny) { to = k + 1; break; }
  }
  for (let k = mode, v = 1; k > lo; k--) {
    v *= k / (m - k + 1) / odds;
    pmf[k - 1 - lo] = v;
    if (v < tiny) { from = k - 1; break; }
  }
  const window = pmf.subarray(from - lo, to - lo + 1);
  let total = 0;
  for (let j = 0; j < window.length; j++) total += window[j];
  for (let j = 0; j < window.length; j++) window[j] /= total;
  return { from, pmf: window };
}

/** The sum's distribution for these probabilities: exact for small bins, else the binomial of their mean. */
export function binSumDistribution(p: ArrayLike<number>): CountDistribution {
  if (p.length <= EXACT_MAX) return poissonBinomial(p);
  let s = 0;
  for (let i = 0; i < p.length; i++) s += Math.min(1, Math.max(0, p[i]));
  return binomial(p.length, s / p.length);
}

/**
 * Smallest count k with P(S ≤ k) ≥ q (R's qbinom convention). A small tolerance keeps sums of
 * rounded probabilities that should reach q exactly (e.g. 0.5) from stepping one count too far.
 */
export function countQuantile(d: CountDistribution, q: number): number {
  let cdf = 0;
  for (let j = 0; j < d.pmf.length; j++) {
    cdf += d.pmf[j];
    if (cdf >= q - 1e-12) return d.from + j;
  }
  return d.from + d.pmf.length - 1;
}

/**
 * Quantile coupling: for each draw i, the count S_i at uniform u[i] (the smallest k with
 * P(S ≤ k) > u[i]), and stat[i] += term(S_i). `order` lists the uniforms in increasing order, so
 * one walk up the cdf serves them all; the same uniforms give every hypothesis's draws, so a
 * larger success probability never gives a smaller count.
 */
export function addTermsAtUniforms(
  d: CountDistribution,
  u: Float64Array,
  order: Uint32Array,
  stat: Float64Array,
  term: (count: number) => number,
): void {
  const { pmf, from } = d;
  const last = pmf.length - 1;
  let k = 0;
  let cdf = pmf[0];
  let value = term(from);
  for (let j = 0; j < order.length; j++) {
    const i = order[j];
    if (u[i] >= cdf && k < last) {
      while (u[i] >= cdf && k < last) cdf += pmf[++k];
      value = term(from + k);
    }
    stat[i] += value;
  }
}
