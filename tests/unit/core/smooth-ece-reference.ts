/**
 * Two slow references for smooth-ece.ts, used only by its tests:
 * - `exactSmoothEceAt`: the definition evaluated without any grid: g(t) summed over every row
 *   with the reflected kernel's images |n| ≤ 8 (enough for σ ≤ 1), integrated on a fine
 *   uniform t grid (trapezoid; |linear| across sign changes; g′(0) = g′(1) = 0 so the
 *   trapezoid's h² term vanishes, and the |b − a|/6 term puts back the one a kink leaves).
 * - `legacySmoothEceAt`: the implementation this project shipped before the fast one (linear
 *   binning on a grid of step min(0.001, σ/20), direct convolution truncated at 6σ).
 */
const SQRT_2PI = Math.sqrt(2 * Math.PI);

export function exactSmoothEceAt(conf: ArrayLike<number>, y: ArrayLike<number>, sigma: number, T = 8000): number {
  const n = Math.min(conf.length, y.length);
  // Images farther than 40σ weigh below e^-800 (0 in doubles): skip them to save time.
  const phi = (d: number) => (Math.abs(d) > 40 * sigma ? 0 : Math.exp(-(d * d) / (2 * sigma * sigma)) / (SQRT_2PI * sigma));
  const g = (t: number) => {
    let s = 0;
    for (let i = 0; i < n; i++) {
      const f = Math.min(1, Math.max(0, conf[i]));
      let k = 0;
      for (let m = -8; m <= 8; m++) k += phi(t - f - 2 * m) + phi(t + f - 2 * m);
      s += (y[i] - conf[i]) * k;
    }
    return s / n;
  };
  let integral = 0;
  let prev = g(0);
  for (let j = 1; j <= T; j++) {
    const v = g(j / T);
    const a = prev, b = v;
    integral += (a < 0 && b > 0) || (a > 0 && b < 0)
      ? (a * a + b * b) / (2 * (Math.abs(a) + Math.abs(b))) + Math.abs(b - a) / 6
      : (Math.abs(a) + Math.abs(b)) / 2 + ((a === 0) !== (b === 0) ? Math.abs(b - a) / 12 : 0);
    prev = v;
  }
  return integral / T;
}

export function legacySmoothEceAt(conf: ArrayLike<number>, y: ArrayLike<number>, sigma: number): number {
  const n = Math.min(conf.length, y.length);
  if (n === 0 || !(sigma > 0)) return NaN;
  const M = Math.max(1001, Math.ceil(20 / sigma) + 1);
  const step = 1 / (M - 1);
  const g = new Float64Array(M);
  for (let i = 0; i < n; i++) {
    const f = conf[i];
    if (Number.isNaN(f) || Number.isNaN(y[i])) return NaN;
    const x = Math.min(1, Math.max(0, f)) * (M - 1);
    const k = Math.min(Math.floor(x), M - 2);
    const frac = x - k;
    const r = (y[i] - f) / n;
    g[k] += (1 - frac) * r;
    g[k + 1] += frac * r;
  }
  g[0] *= 2;
  g[M - 1] *= 2;
  const P = 2 * (M - 1);
  const ext = new Float64Array(3 * P);
  for (let i = 0; i < 3 * P; i++) {
    const r = i % P;
    ext[i] = r <= M - 1 ? g[r] : g[P - r];
  }
  const norm = 1 / (SQRT_2PI * sigma);
  const phi = (d: number) => norm * Math.exp(-((d * step) ** 2) / (2 * sigma * sigma));
  const W = Math.ceil((6 * sigma) / step);
  let offsets: Int32Array, weights: Float64Array;
  if (2 * W + 1 <= P) {
    offsets = new Int32Array(2 * W + 1);
    weights = new Float64Array(2 * W + 1);
    for (let d = -W; d <= W; d++) {
      offsets[d + W] = d;
      weights[d + W] = phi(d);
    }
  } else {
    offsets = new Int32Array(P);
    weights = new Float64Array(P);
    for (let r = 0; r < P; r++) offsets[r] = r;
    for (let d = -W; d <= W; d++) weights[((d % P) + P) % P] += phi(d);
  }
  let integral = 0;
  for (let k = 0; k < M; k++) {
    let h = 0;
    const base = k + P;
    for (let q = 0; q < offsets.length; q++) h += weights[q] * ext[base - offsets[q]];
    integral += (k === 0 || k === M - 1 ? 0.5 : 1) * Math.abs(h);
  }
  return integral * step;
}

/** The bisection of smooth-ece.ts over any evaluator (for comparing evaluators end to end). */
export function bisectBandwidth(at: (sigma: number) => number): { value: number; sigma: number } {
  const below = (s: number) => s < 0.001 || s < at(s);
  let sigma = 1;
  if (!below(1)) {
    let hi = 1, lo = 0;
    for (let i = 0; i < 10; i++) {
      const mid = (hi + lo) / 2;
      if (below(mid)) lo = mid;
      else hi = mid;
    }
    sigma = hi;
  }
  return { value: at(sigma), sigma };
}
