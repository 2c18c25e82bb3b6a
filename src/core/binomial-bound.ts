/**
 * The exact (Clopper & Pearson 1934) one-sided upper confidence bound of a binomial proportion,
 * for the abstention threshold's risk guarantee (abstention.ts): after k errors in n answered
 * questions, the bound u at confidence 1 − δ is the p with P(Bin(n, p) ≤ k) = δ, i.e. the
 * (1 − δ) quantile of Beta(k + 1, n − k); 1 when k = n.
 *
 * P(Bin(n, p) ≤ k) = I_{1−p}(n − k, k + 1), the regularized incomplete beta function, evaluated
 * by its continued fraction (modified Lentz; Press et al., Numerical Recipes, §6.4) with the
 * Lanczos log-gamma. Whether the bound is ≤ a target needs one evaluation, no root finding:
 * u ≤ t ⟺ P(Bin(n, t) ≤ k) ≤ δ, the cdf being decreasing in p.
 */

const LANCZOS = [676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];

/** ln Γ(x) for x > 0 (Lanczos, g = 7; relative error about 1e-15). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = 0.99999999999980993;
  const t = z + 7.5;
  for (let i = 0; i < 8; i++) a += LANCZOS[i] / (z + i + 1);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta (converges fast for x < (a + 1)/(a + b + 2)). */
function betaFraction(a: number, b: number, x: number): number {
  const TINY = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta I_x(a, b), a, b > 0, x in [0, 1]. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** P(Bin(n, p) ≤ k) for whole 0 ≤ k, n. */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  return regularizedBeta(1 - p, n - k, k + 1);
}

/** Whether the Clopper–Pearson upper bound of k errors in n at confidence 1 − δ is at most `target`. */
export function upperBoundAtMost(k: number, n: number, delta: number, target: number): boolean {
  if (n <= 0) return false;
  return binomialCdf(k, n, target) <= delta;
}

/** The Clopper–Pearson upper bound itself (bisection on the cdf to 1e-12); 1 when k ≥ n, NaN when n = 0. */
export function clopperPearsonUpper(k: number, n: number, delta: number): number {
  if (!(n > 0)) return NaN;
  if (k >= n) return 1;
  let lo = k / n;
  // A bracket a few standard errors wide (widened to 1 if the bound lies beyond it) saves most steps.
  let hi = Math.min(1, lo + 10 * Math.sqrt((lo * (1 - lo) + 1 / n) / n) + 10 / n);
  if (binomialCdf(k, n, hi) > delta) hi = 1;
  for (let it = 0; it < 80 && hi - lo > 1e-12; it++) {
    const mid = (lo + hi) / 2;
    if (binomialCdf(k, n, mid) > delta) lo = mid;
    else hi = mid;
  }
  return hi;
}
