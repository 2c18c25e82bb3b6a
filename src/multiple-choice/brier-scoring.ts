/**
 * ConfidenceBench's scores for one run (§3.3): Brier = mean over questions of (p_i − o_i)², p_i the
 * stated probability that the chosen answer is correct, o_i ∈ {0, 1} its correctness. This is the
 * binary Brier score of the chosen answer, not the multi-class one over all options (the model
 * states one probability, not a distribution). Beside it: the uniform-guess reference line, the
 * accuracy, the count of fallbacks, and the same numbers per category.
 */
import { brierScore } from '../core/brier';
import { uniformBaselineBrier } from '../core/brier-baseline';
import { pairwiseMean } from '../core/pairwise';
import type { McOutcome } from './outcome';

export interface McScores {
  questions: number;
  /** Mean of (p − o)²; NaN with no questions. */
  brier: number;
  /** Expected Brier of the uniform guess on these questions (0.1875 when all have 4 options). */
  baseline: number;
  accuracy: number;
  meanProbability: number;
  /** Replies scored as the uniform guess (unparsable, refusals, failed requests). */
  fallbacks: number;
  fallbackReasons: Record<string, number>;
}

export interface McRunScores extends McScores {
  byCategory: Record<string, McScores>;
}

/** The category name used for questions without one. */
export const UNCATEGORIZED = '(none)';

export function mcScores(outcomes: readonly McOutcome[]): McScores {
  const p = outcomes.map((o) => o.probability);
  const y = outcomes.map((o) => o.correct);
  const fallbackReasons: Record<string, number> = {};
  for (const o of outcomes) if (o.fallback) fallbackReasons[o.fallback] = (fallbackReasons[o.fallback] ?? 0) + 1;
  return {
    questions: outcomes.length,
    brier: brierScore(p, y),
    baseline: uniformBaselineBrier(outcomes.map((o) => o.k)),
    accuracy: pairwiseMean(y),
    meanProbability: pairwiseMean(p),
    fallbacks: outcomes.filter((o) => o.fallback !== null).length,
    fallbackReasons,
  };
}

/** Scores of one run, overall and per category (categories in order of first appearance). */
export function mcRunScores(outcomes: readonly McOutcome[]): McRunScores {
  const groups = new Map<string, McOutcome[]>();
  for (const o of outcomes) {
    const key = o.category ?? UNCATEGORIZED;
    const list = groups.get(key) ?? [];
    list.push(o);
    groups.set(key, list);
  }
  const byCategory: Record<string, McScores> = {};
  for (const [key, list] of groups) byCategory[key] = mcScores(list);
  return { ...mcScores(outcomes), byCategory };
}
