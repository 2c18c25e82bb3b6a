/**
 * The prediction–rejection ratio (PRR) and the area under the accuracy–rejection curve (AUARC),
 * as LM-Polygraph computes them (IINemo/lm-polygraph, src/lm_polygraph/ue_metrics/
 * pred_rej_area.py, ue_metric.py, and the normalisation in utils/manager.py `eval_ue`; read at
 * commit efea882d810d07770e71d3a80e02416d09751435). PRR is Malinin et al.'s (2017, "Incorporating
 * uncertainty into deep learning for spoken language assessment", ACL), the paper LM-Polygraph's
 * authors cite for it. Both judge ranking only, never calibration: any increasing map of the
 * confidences leaves them unchanged.
 *
 * The accuracy–rejection curve: reject the least confident questions one by one; after j
 * rejections (j = 0 … N − 1) the curve's height is the mean correctness of the N − j retained
 * questions. With K = ⌊maxRejection · N⌋ (LM-Polygraph's `num_rej = int(max_rejection ·
 * num_obs)`, the same double product truncated), the area is the mean height over j = 0 … K − 1:
 * a left-rectangle sum of width 1/N, divided by K rather than N (LM-Polygraph's
 * `np.sum(scores) / num_rej`), so it is a mean accuracy and the oracle, random and signal areas
 * share one scale. PRR = (signal − random) / (oracle − random), LM-Polygraph's `normalize_metric`.
 *
 * Conventions, each LM-Polygraph's unless marked otherwise:
 * - Sign: LM-Polygraph takes an uncertainty (larger = less confident) and sorts it ascending. Here
 *   the input is a confidence (larger = more confident), i.e. uncertainty = −confidence; the
 *   orders are the same.
 * - Target: correctness Y ∈ {0, 1}. LM-Polygraph min–max normalises its target first, which
 *   leaves a 0/1 target with both values unchanged.
 * - Oracle: the signal that ranks by Y itself (LM-Polygraph's `ue_metric(−metric, metric)`); its
 *   height after j rejections is min(P, N − j)/(N − j), P the number correct. Ties among the
 *   oracle's scores are between equal Y, so its order inside them cannot matter.
 * - Random (differs): LM-Polygraph averages 1000 random permutations (`get_random_scores`, numpy's
 *   legacy seed 42), a Monte Carlo estimate. Here the exact expectation it estimates: under a
 *   uniformly random order the retained questions are a uniform random subset, whose expected
 *   accuracy is P/N at every j, so random = P/N. The two differ by the Monte Carlo error only
 *   (bench/reference/ranking_reference.py records both).
 * - Ties in the confidence (differs): LM-Polygraph takes `np.argsort`'s order (the default,
 *   unstable kind: for ties it depends on N and on numpy's build). Here ties are averaged over
 *   every order of each tie group, as the report's AURC does (risk-coverage.ts): a tie group of m
 *   questions with c correct adds c/m expected correct per member taken. Without ties the two are
 *   the same number; with ties this is the mean of LM-Polygraph's value over all tie orders.
 * - Undefined cases (differs): when the oracle equals random (all Y equal, or K = 1), LM-Polygraph
 *   returns the unnormalised area (0.5 when all Y are equal, after its normalisation of a constant
 *   target); here PRR is NaN. K = 0 (maxRejection · N < 1) makes LM-Polygraph fail; here NaN. A
 *   NaN confidence makes everything NaN (LM-Polygraph's manager replaces NaN by −1e7, i.e. most
 *   confident, and ±∞ by ∓1e7; the caller here drops such rows itself if it wants them gone).
 *
 * AUARC is the area at maxRejection = 1 (all N heights, LM-Polygraph's raw `prr` before
 * normalisation), which is exactly 1 − AURC (risk-coverage.ts): the height after j rejections is
 * 1 − the selective risk at coverage (N − j)/N, with the same tie averaging. TruthTorchLM's
 * `auarc` (utils/eval_utils.py, `area_under_accuracy_coverage_curve`) is a trapezoid over
 * N points at x = linspace(0, 1, N): (N·AUARC − (a₁ + a_N)/2)/(N − 1), a₁ the accuracy of the
 * single most confident question and a_N the overall accuracy; the two differ by O(1/N).
 */
import { riskCoverageCurve } from './risk-coverage';

/** LM-Polygraph's default `max_rejection` (its `prr`; `prr_0.5` uses 0.5). */
export const PRR_MAX_REJECTION = 1;

export interface PredictionRejection {
  /** Questions N. */
  n: number;
  /** Rejection steps averaged, K = ⌊maxRejection · N⌋ (heights after 0 … K − 1 rejections). */
  steps: number;
  /** Mean height of the signal's accuracy–rejection curve over those steps (ties averaged). */
  area: number;
  /** The same for the oracle (ranking by Y). */
  oracle: number;
  /** The same for a random ranking: P/N exactly. */
  random: number;
  /** (area − random)/(oracle − random); NaN when oracle = random or the area is undefined. */
  prr: number;
}

export interface AccuracyRejectionCurve {
  /** Fraction rejected j/N at point j, j = 0 … N − 1. */
  rejected: Float64Array;
  /** Mean correctness of the N − j most confident questions (ties averaged over every order). */
  accuracy: Float64Array;
  /** The oracle's: min(P, N − j)/(N − j). */
  oracle: Float64Array;
  /** The random ranking's height, the same at every j: P/N. */
  random: number;
  /** Questions correct, P. */
  correct: number;
}

function checkZeroOne(y: ArrayLike<number>, n: number): void {
  for (let i = 0; i < n; i++) {
    if (y[i] !== 0 && y[i] !== 1) throw new RangeError(`correctness must be 0 or 1, got ${y[i]} at row ${i}`);
  }
}

/**
 * The accuracy–rejection curve over the first min(conf.length, y.length) rows; empty (random NaN)
 * for no rows or a NaN confidence. Y must be 0/1. `order`: ascendingOrder(conf, n) when the
 * caller has it.
 */
export function accuracyRejectionCurve(conf: ArrayLike<number>, y: ArrayLike<number>, order?: Int32Array): AccuracyRejectionCurve {
  const m = Math.min(conf.length, y.length);
  checkZeroOne(y, m);
  const rc = riskCoverageCurve(conf, y, order);
  const n = rc.n;
  const rejected = new Float64Array(n);
  const accuracy = new Float64Array(n);
  const oracle = new Float64Array(n);
  let correct = 0;
  for (let i = 0; i < n; i++) correct += y[i];
  for (let j = 0; j < n; j++) {
    const kept = n - j;
    rejected[j] = j / n;
    // risk[k − 1] is the selective risk of the k most confident; k = N − j are kept.
    accuracy[j] = 1 - rc.risk[kept - 1];
    oracle[j] = Math.min(correct, kept) / kept;
  }
  return { rejected, accuracy, oracle, random: n === 0 ? NaN : correct / n, correct };
}

/**
 * PRR with its three areas. `maxRejection` ∈ (0, 1] (default 1, LM-Polygraph's `prr`). Y must be
 * 0/1 (RangeError otherwise). NaN areas for no rows, a NaN confidence or K = 0.
 */
export function predictionRejection(
  conf: ArrayLike<number>,
  y: ArrayLike<number>,
  options: { maxRejection?: number; order?: Int32Array } = {},
): PredictionRejection {
  const maxRejection = options.maxRejection ?? PRR_MAX_REJECTION;
  if (!(maxRejection > 0 && maxRejection <= 1)) throw new RangeError(`maxRejection must be in (0, 1], got ${maxRejection}`);
  const curve = accuracyRejectionCurve(conf, y, options.order);
  const n = curve.accuracy.length;
  // int(max_rejection * num_obs): the same IEEE product, truncated (both are non-negative).
  const steps = Math.floor(maxRejection * n);
  if (steps === 0) return { n, steps, area: NaN, oracle: NaN, random: curve.random, prr: NaN };
  let area = 0;
  let oracle = 0;
  for (let j = 0; j < steps; j++) {
    area += curve.accuracy[j];
    oracle += curve.oracle[j];
  }
  area /= steps;
  oracle /= steps;
  const { random, correct } = curve;
  // oracle = random exactly when one class is absent or only j = 0 is averaged (both heights P/N).
  const degenerate = correct === 0 || correct === n || steps === 1;
  const prr = degenerate ? NaN : (area - random) / (oracle - random);
  return { n, steps, area, oracle, random, prr };
}

/** PRR alone (see predictionRejection). */
export function prr(conf: ArrayLike<number>, y: ArrayLike<number>, maxRejection = PRR_MAX_REJECTION): number {
  return predictionRejection(conf, y, { maxRejection }).prr;
}

/**
 * AUARC: the mean accuracy of the retained questions over all N rejection steps, LM-Polygraph's
 * unnormalised prediction–rejection area at max_rejection = 1, which is 1 − AURC (the same tie
 * averaging). NaN for no rows or a NaN confidence.
 */
export function auarc(conf: ArrayLike<number>, y: ArrayLike<number>, order?: Int32Array): number {
  checkZeroOne(y, Math.min(conf.length, y.length));
  return 1 - riskCoverageCurve(conf, y, order).area;
}
