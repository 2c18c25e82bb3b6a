/**
 * The reference line of ConfidenceBench: the Brier score of a forecaster that picks an option
 * uniformly at random and always states 1/k. With probability 1/k its pick is right, costing
 * (1 − 1/k)², otherwise it costs (1/k)², so the expected score is
 *   (1/k)(1 − 1/k)² + (1 − 1/k)(1/k)² = (1/k)(1 − 1/k) = (k − 1)/k²
 * which is 0.1875 for k = 4 (ConfidenceBench §3.3) and 0.25 for k = 2.
 * For a set of questions with different option counts the expectation is the mean of the
 * per-question values (linearity), numpy-pairwise so it matches `np.mean`.
 */
import { pairwiseMean } from './pairwise';

/** Expected Brier score of the uniform guess on one question with k options; NaN when k < 1. */
export function uniformGuessBrier(k: number): number {
  if (!(k >= 1)) return NaN;
  return (k - 1) / (k * k);
}

/** Expected Brier score of the uniform guess over questions with these option counts; NaN if empty. */
export function uniformBaselineBrier(optionCounts: ArrayLike<number>): number {
  const values = new Float64Array(optionCounts.length);
  for (let i = 0; i < optionCounts.length; i++) values[i] = uniformGuessBrier(optionCounts[i]);
  return pairwiseMean(values);
}
