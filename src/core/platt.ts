/**
 * Platt scaling (Platt 1999, "Probabilistic outputs for support vector machines and comparisons
 * to regularized likelihood methods"): P(Y = 1 | s) = σ(a·s + b), a and b maximising the
 * Bernoulli log-likelihood ℓ(a, b) = Σ tᵢ log pᵢ + (1 − tᵢ) log(1 − pᵢ) of the fitting rows.
 *
 * Choices, stated:
 * - No regularisation. UQLM's ScoreCalibrator and most LLM-UQ code call sklearn's
 *   LogisticRegression() with its default C = 1, an L2 penalty a²/2 on the slope in the score's own
 *   units: the fit then depends on how the score is scaled (a verbalized 0–100 score and the same
 *   score in 0–1 would be recalibrated differently). Plain maximum likelihood does not.
 * - Targets tᵢ = Yᵢ (plain labels) when the maximum-likelihood estimate exists. It exists iff both
 *   classes are present and the classes overlap in score: max{s : Y = 0} > min{s : Y = 1} and
 *   max{s : Y = 1} > min{s : Y = 0} (Albert & Anderson 1984: otherwise a threshold separates the
 *   classes, perhaps with ties at it, and ℓ keeps rising as |a| → ∞). When it does not exist (or
 *   on request), Platt's smoothed targets are used instead: t₊ = (N₊ + 1)/(N₊ + 2) for Y = 1 and
 *   t₋ = 1/(N₋ + 2) for Y = 0 (Platt 1999, §2.2; also sklearn's CalibratedClassifierCV 'sigmoid').
 *   Targets strictly inside (0, 1) make ℓ strictly concave with a finite maximiser whenever the
 *   scores are not all equal, so the fit always ends.
 * - All fitting scores equal: a is not identified; a = 0 and b = logit(mean target) (the mean Y
 *   when both classes are present, else the smoothed one), a constant map.
 * - Newton's method on ℓ in standardised scores z = (s − mean)/sd (better conditioned), from
 *   a = 0, b = logit(mean target), with step halving whenever a step larger than 1e-6 does not
 *   raise ℓ; stopped when a step moves both parameters by less than 1e-12 (standardised units) or
 *   after 100 iterations. a and b are mapped back to the raw score.
 */

export type PlattTargets = 'labels' | 'smoothed';

export interface PlattFit {
  /** Slope on the raw score. */
  a: number;
  /** Intercept. */
  b: number;
  /** The targets fitted: plain labels, or Platt's smoothed ones (requested, or the MLE does not exist). */
  targets: PlattTargets;
  /** Newton iterations taken (0 for a constant map). */
  iterations: number;
}

const MAX_ITERATIONS = 100;
const STEP_TOLERANCE = 1e-12;
/** Steps larger than this (standardised units) are checked against ℓ and halved if they lower it. */
const LINE_SEARCH_ABOVE = 1e-6;

/** log(1 + e^η) without overflow. */
function softplus(eta: number): number {
  return eta > 0 ? eta + Math.log1p(Math.exp(-eta)) : Math.log1p(Math.exp(eta));
}

/** σ(η) without overflow. */
export function sigmoid(eta: number): number {
  if (eta >= 0) return 1 / (1 + Math.exp(-eta));
  const e = Math.exp(eta);
  return e / (1 + e);
}

function rowsOf(score: ArrayLike<number>, y: ArrayLike<number>, rows?: ArrayLike<number>): ArrayLike<number> {
  return rows ?? Array.from({ length: Math.min(score.length, y.length) }, (_, i) => i);
}

/**
 * Whether the unregularised maximum-likelihood (a, b) exists for plain labels on these rows: both
 * classes present and their score ranges overlapping strictly (see the file's comment).
 */
export function plattMleExists(score: ArrayLike<number>, y: ArrayLike<number>, rows?: ArrayLike<number>): boolean {
  const idx = rowsOf(score, y, rows);
  let min0 = Infinity, max0 = -Infinity, min1 = Infinity, max1 = -Infinity;
  for (let k = 0; k < idx.length; k++) {
    const s = score[idx[k]];
    if (y[idx[k]] === 1) {
      if (s < min1) min1 = s;
      if (s > max1) max1 = s;
    } else {
      if (s < min0) min0 = s;
      if (s > max0) max0 = s;
    }
  }
  return max0 > min1 && max1 > min0;
}

/**
 * Fits σ(a·s + b) to Y (0/1) over `rows` (default all min(score.length, y.length) rows).
 * `targets: 'labels'` (default) fits plain labels when their MLE exists and Platt's smoothed
 * targets when it does not; `'smoothed'` always fits the smoothed ones. Scores must be finite and Y
 * 0/1 (RangeError otherwise); no rows: RangeError.
 */
export function fitPlatt(
  score: ArrayLike<number>,
  y: ArrayLike<number>,
  rows?: ArrayLike<number>,
  options: { targets?: PlattTargets } = {},
): PlattFit {
  const idx = rowsOf(score, y, rows);
  const m = idx.length;
  if (m === 0) throw new RangeError('platt: no rows to fit');
  let positives = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < m; k++) {
    const s = score[idx[k]];
    const yy = y[idx[k]];
    if (!Number.isFinite(s)) throw new RangeError(`platt: score must be finite, got ${s} at row ${idx[k]}`);
    if (yy !== 0 && yy !== 1) throw new RangeError(`platt: correctness must be 0 or 1, got ${yy} at row ${idx[k]}`);
    positives += yy;
    if (s < min) min = s;
    if (s > max) max = s;
  }
  const constant = min === max;
  const bothClasses = positives > 0 && positives < m;
  const targets: PlattTargets =
    options.targets === 'smoothed' || (constant ? !bothClasses : !plattMleExists(score, y, idx)) ? 'smoothed' : 'labels';
  const hi = targets === 'smoothed' ? (positives + 1) / (positives + 2) : 1;
  const lo = targets === 'smoothed' ? 1 / (m - positives + 2) : 0;
  const t = new Float64Array(m);
  let tMean = 0;
  for (let k = 0; k < m; k++) {
    t[k] = y[idx[k]] === 1 ? hi : lo;
    tMean += t[k];
  }
  tMean /= m;
  const b0 = Math.log(tMean / (1 - tMean));
  if (constant) return { a: 0, b: b0, targets, iterations: 0 };

  // z = (s − mean)/sd, computed on s/range first so that neither the squares nor sd under- or overflow.
  const range = max - min;
  const z = new Float64Array(m);
  let mean = 0;
  for (let k = 0; k < m; k++) {
    z[k] = score[idx[k]] / range;
    mean += z[k];
  }
  mean /= m;
  let ss = 0;
  for (let k = 0; k < m; k++) {
    z[k] -= mean;
    ss += z[k] * z[k];
  }
  const sdScaled = Math.sqrt(ss / m);
  for (let k = 0; k < m; k++) z[k] /= sdScaled;
  const sd = sdScaled * range;
  mean *= range;
  const logLik = (alpha: number, beta: number): number => {
    let l = 0;
    for (let k = 0; k < m; k++) {
      const eta = alpha * z[k] + beta;
      l += t[k] * eta - softplus(eta);
    }
    return l;
  };

  let alpha = 0;
  let beta = b0;
  let current = logLik(alpha, beta);
  let iterations = 0;
  while (iterations < MAX_ITERATIONS) {
    iterations++;
    // Gradient g and negative Hessian H of ℓ in (α, β).
    let g0 = 0, g1 = 0, h00 = 0, h01 = 0, h11 = 0;
    for (let k = 0; k < m; k++) {
      const p = sigmoid(alpha * z[k] + beta);
      const r = t[k] - p;
      const v = p * (1 - p);
      g0 += r * z[k];
      g1 += r;
      h00 += v * z[k] * z[k];
      h01 += v * z[k];
      h11 += v;
    }
    const det = h00 * h11 - h01 * h01;
    if (!(det > 0)) break; // every p saturated at 0 or 1: nothing left to move
    let d0 = (h11 * g0 - h01 * g1) / det;
    let d1 = (h00 * g1 - h01 * g0) / det;
    const size = Math.max(Math.abs(d0), Math.abs(d1));
    if (size > LINE_SEARCH_ABOVE) {
      // Step halving: the largest step 2^-k that does not lower ℓ.
      let next = logLik(alpha + d0, beta + d1);
      let halvings = 0;
      while (!(next >= current) && halvings < 60) {
        d0 /= 2;
        d1 /= 2;
        next = logLik(alpha + d0, beta + d1);
        halvings++;
      }
      if (!(next >= current)) break;
      current = next;
    }
    // Small steps are taken whole: near the maximum ℓ changes by less than its rounding, so comparing
    // ℓ would reject good steps, and Newton's step there is already quadratically accurate.
    alpha += d0;
    beta += d1;
    if (size < STEP_TOLERANCE) break;
    if (size <= LINE_SEARCH_ABOVE) current = logLik(alpha, beta);
  }
  // σ(α·(s − mean)/sd + β) = σ(a·s + b).
  const a = alpha / sd;
  return { a, b: beta - a * mean, targets, iterations };
}

/** The fitted map at score s: σ(a·s + b). */
export function predictPlatt(fit: PlattFit, s: number): number {
  return sigmoid(fit.a * s + fit.b);
}
