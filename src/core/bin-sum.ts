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

/**
 * Binomial(m, p) on the window of counts that carries all but about 1e-17 of its mass: the pmf
 * is built by its ratio recurrence outward from the mode, then normalised (no log-gamma needed).
 */
export function binomial(m: number, p: number): CountDistribution {
  if (!(p > 0) || m === 0) return { from: 0, pmf: Float64Array.of(1) };
  if (p >= 1) return { from: m, pmf: Float64Array.of(1) };
  const mode = Math.min(m, Math.floor((m + 1) * p));
  const odds = p / (1 - p);
  const tiny = 1e-18;
  const up: number[] = [];
  let v = 1;
  for (let k = mode; k < m && v > tiny; k++) {
    v *= ((m - k) / (k + 1)) * odds;
    up.push(v);
  }
  const down: number[] = [];
  v = 1;
  for (let k = mode; k > 0 && v > tiny; k--) {
    v *= (k / (m - k + 1)) / odds;
    down.push(v);
  }
  const pmf = new Float64Array(down.length + 1 + up.length);
  let at = 0;
  for (let j = down.length - 1; j >= 0; j--) pmf[at++] = down[j];
  pmf[at++] = 1;
  for (const u of up) pmf[at++] = u;
  let total = 0;
  for (const x of pmf) total += x;
  for (let j = 0; j < pmf.length; j++) pmf[j] /= total;
  return { from: mode - down.length, pmf };
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
 * Quantile coupling: out[order[j]] = the count at uniform u[order[j]], for `order` listing the
 * uniforms in increasing order. One walk up the cdf serves all of them, and the same uniforms
 * give every hypothesis's draw, so a larger success probability never gives a smaller count.
 */
export function countsAtUniforms(
  d: CountDistribution,
  u: Float64Array,
  order: Uint32Array,
  out: Int32Array,
): void {
  const { pmf, from } = d;
  const last = pmf.length - 1;
  let k = 0;
  let cdf = pmf[0];
  for (let j = 0; j < order.length; j++) {
    const i = order[j];
    while (u[i] >= cdf && k < last) cdf += pmf[++k];
    out[i] = from + k;
  }
}
