/**
 * Isotonic recalibration (Zadrozny & Elkan 2002, "Transforming classifier scores into accurate
 * multiclass probability estimates"): the non-decreasing map of the score that fits the 0/1
 * outcomes best in squared error, found by pool-adjacent-violators (PAV; Ayer et al. 1955).
 *
 * Conventions, chosen to be scikit-learn's IsotonicRegression(increasing=True,
 * out_of_bounds='clip') as CalibratedClassifierCV and UQLM's ScoreCalibrator use it:
 * - Ties in the score are pooled first: each distinct score becomes one point whose value is the
 *   mean outcome of its rows and whose weight is their count (sklearn's `_make_unique`; it merges
 *   scores closer than ~1e-15, here only exactly equal ones, −0 and 0 being one score).
 * - Weighted PAV on the distinct scores in ascending order gives the fitted value at each.
 * - Between two fitted scores the map interpolates linearly (sklearn's `interp1d(kind='linear')`);
 *   Zadrozny & Elkan's map is a step function, which would make every score between two fitted
 *   ones take the lower one's value.
 * - Outside the fitted range the map is clipped to the end values (out_of_bounds='clip').
 *   sklearn's default 'nan' would leave held-out questions beyond the fitting half's range without
 *   a confidence, and cross-fitting predicts exactly such questions.
 * The map's values lie in [0, 1] (means of 0/1 outcomes and their interpolations) and are
 * non-decreasing in the score, so it keeps the ranking up to ties it creates.
 */
import { ascendingOrder } from './ranking';

export interface IsotonicMap {
  /** The fitting rows' distinct scores, ascending. */
  x: Float64Array;
  /** The fitted (non-decreasing) value at each. */
  fitted: Float64Array;
  /** Rows at each distinct score (the PAV weights). */
  weight: Float64Array;
}

/**
 * Weighted pool-adjacent-violators: the non-decreasing sequence minimising Σ wᵢ(fᵢ − vᵢ)², in the
 * given order. Weights must be positive.
 */
export function pava(values: ArrayLike<number>, weights: ArrayLike<number>): Float64Array {
  const n = values.length;
  // A stack of blocks: weighted sum, total weight, and the index where each block starts.
  const sum = new Float64Array(n);
  const wt = new Float64Array(n);
  const start = new Int32Array(n + 1);
  let blocks = 0;
  for (let i = 0; i < n; i++) {
    sum[blocks] = weights[i] * values[i];
    wt[blocks] = weights[i];
    start[blocks] = i;
    blocks++;
    // Pool while the previous block's mean is not below the new one's (pooling equal means changes nothing).
    while (blocks > 1 && sum[blocks - 2] / wt[blocks - 2] >= sum[blocks - 1] / wt[blocks - 1]) {
      sum[blocks - 2] += sum[blocks - 1];
      wt[blocks - 2] += wt[blocks - 1];
      blocks--;
    }
  }
  start[blocks] = n;
  const out = new Float64Array(n);
  for (let b = 0; b < blocks; b++) out.fill(sum[b] / wt[b], start[b], start[b + 1]);
  return out;
}

/**
 * Fits the isotonic map of Y (0/1, or any values in [0, 1]) on the score over `rows` (row indices;
 * default all min(score.length, y.length) rows). Scores must be finite (RangeError otherwise);
 * no rows: RangeError.
 */
export function fitIsotonic(score: ArrayLike<number>, y: ArrayLike<number>, rows?: ArrayLike<number>): IsotonicMap {
  const idx = rows ?? Array.from({ length: Math.min(score.length, y.length) }, (_, i) => i);
  const m = idx.length;
  if (m === 0) throw new RangeError('isotonic: no rows to fit');
  const s = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    s[k] = score[idx[k]];
    if (!Number.isFinite(s[k])) throw new RangeError(`isotonic: score must be finite, got ${s[k]} at row ${idx[k]}`);
  }
  const order = ascendingOrder(s, m);
  const xs: number[] = [];
  const means: number[] = [];
  const counts: number[] = [];
  for (let p = 0; p < m; ) {
    const v = s[order[p]];
    let total = 0;
    let q = p;
    for (; q < m && s[order[q]] === v; q++) total += y[idx[order[q]]];
    xs.push(v === 0 ? 0 : v);
    means.push(total / (q - p));
    counts.push(q - p);
    p = q;
  }
  const weight = Float64Array.from(counts);
  return { x: Float64Array.from(xs), fitted: pava(means, weight), weight };
}

/** The map at score s: linear between fitted scores, clipped outside them; NaN for NaN. */
export function predictIsotonic(map: IsotonicMap, s: number): number {
  const { x, fitted } = map;
  const last = x.length - 1;
  if (Number.isNaN(s)) return NaN;
  if (s <= x[0]) return fitted[0];
  if (s >= x[last]) return fitted[last];
  // Largest i with x[i] ≤ s (x[0] ≤ s < x[last], so 0 ≤ i < last).
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (x[mid] <= s) lo = mid;
    else hi = mid;
  }
  if (s === x[lo]) return fitted[lo];
  const slope = (fitted[lo + 1] - fitted[lo]) / (x[lo + 1] - x[lo]);
  return slope * (s - x[lo]) + fitted[lo];
}
