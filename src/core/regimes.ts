/**
 * The paper's margin regimes, used to stratify questions (SEMECE.md, "Regimes").
 *
 * λ* ≈ 0.3060016 is the root of φ(2λ) − 4λΦ(−2λ) (φ, Φ the standard normal density and CDF):
 * below a standardized margin of 2λ* the upward Jensen bias of Sem1 dominates its error, so
 * Sem1 and Sem2 disagree most there. The spec fixes the threshold at 0.612, which is used as is
 * (2λ* = 0.6120032 would move no realistic question: √n·Δ takes discrete values).
 */
import type { Regime } from './types';

export const LAMBDA_STAR = 0.3060016;
export const JENSEN_THRESHOLD = 0.612;

/**
 * 'jensen' when √n·Δ < 0.612; 'large-margin' when Δ ≥ √(ln K̄ / n); 'low-margin' otherwise.
 * K̄ is the mean number of classes over the questions being shown (see `meanClassCount`).
 * null when the inputs are undefined (a question without samples).
 */
export function regimeOf(stdMargin: number, margin: number, n: number, meanClasses: number): Regime | null {
  if (Number.isNaN(stdMargin) || Number.isNaN(margin) || !(n > 0) || !(meanClasses > 0)) return null;
  if (stdMargin < JENSEN_THRESHOLD) return 'jensen';
  if (margin >= Math.sqrt(Math.log(meanClasses) / n)) return 'large-margin';
  return 'low-margin';
}

/** K̄: mean number of non-empty classes over the questions that have samples; NaN if none do. */
export function meanClassCount(questions: ReadonlyArray<{ n: number; nonEmptyClasses: number }>): number {
  let sum = 0;
  let count = 0;
  for (const q of questions) {
    if (q.n > 0) {
      sum += q.nonEmptyClasses;
      count++;
    }
  }
  return count === 0 ? NaN : sum / count;
}

/**
 * The margins Δ where the regimes change for questions of n samples and K̄ mean classes, as
 * `regimeOf` draws them: Jensen-dominated below 0.612/√n, large-margin from √(ln K̄ / n)
 * (0 when K̄ ≤ 1, where every margin is large).
 */
export function regimeBoundaries(n: number, meanClasses: number): { jensen: number; large: number } {
  const large = meanClasses > 1 ? Math.sqrt(Math.log(meanClasses) / n) : 0;
  return { jensen: jensenBoundary(n), large };
}

/** The margin Δ below which questions of n samples are Jensen-dominated: √n·Δ < 0.612, Δ < 0.612/√n. */
export function jensenBoundary(n: number): number {
  return JENSEN_THRESHOLD / Math.sqrt(n);
}
