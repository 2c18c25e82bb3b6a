/**
 * ConfidenceBench reports each score as the mean over independent runs (3) and its spread across
 * runs. The spread here is the sample standard deviation (ddof = 1, `np.std(x, ddof=1)`): the runs
 * are a sample of the model's run-to-run variation, not the whole of it. With one run it is NaN
 * (null in JSON). Means and sums are numpy-pairwise so the numbers match numpy's.
 */
import { pairwiseMean, pairwiseSum } from '../core/pairwise';
import type { McRunScores } from './brier-scoring';

export interface Spread {
  mean: number;
  /** Sample standard deviation across runs (ddof = 1); NaN for fewer than 2 runs. */
  sd: number;
  runs: number[];
}

/** Mean and sample SD as numpy computes them: mean first, then Σ(x − mean)² / (n − 1). */
export function spread(values: readonly number[]): Spread {
  const mean = pairwiseMean(values);
  const n = values.length;
  const sd = n < 2 ? NaN : Math.sqrt(pairwiseSum(values.map((v) => (v - mean) ** 2)) / (n - 1));
  return { mean, sd, runs: [...values] };
}

export interface McCategorySummary {
  questions: number;
  brier: Spread;
  baseline: number;
  accuracy: Spread;
  fallbacks: number;
}

export interface McSummary {
  runs: number;
  questions: number;
  brier: Spread;
  /** The uniform-guess reference line (the same for every run: it depends only on option counts). */
  baseline: number;
  accuracy: Spread;
  meanProbability: Spread;
  /** Fallbacks summed over runs, and per run. */
  fallbacks: { total: number; perRun: number[]; reasons: Record<string, number> };
  byCategory: Record<string, McCategorySummary>;
}

/** Summary over runs of the same questions. */
export function summarizeMcRuns(runs: readonly McRunScores[]): McSummary {
  const reasons: Record<string, number> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.fallbackReasons)) reasons[k] = (reasons[k] ?? 0) + v;
  const byCategory: Record<string, McCategorySummary> = {};
  const categories = [...new Set(runs.flatMap((r) => Object.keys(r.byCategory)))];
  for (const c of categories) {
    const present = runs.map((r) => r.byCategory[c]).filter((s) => s !== undefined);
    byCategory[c] = {
      questions: present[0].questions,
      brier: spread(present.map((s) => s.brier)),
      baseline: present[0].baseline,
      accuracy: spread(present.map((s) => s.accuracy)),
      fallbacks: present.reduce((t, s) => t + s.fallbacks, 0),
    };
  }
  return {
    runs: runs.length,
    questions: runs.length ? runs[0].questions : 0,
    brier: spread(runs.map((r) => r.brier)),
    baseline: runs.length ? runs[0].baseline : NaN,
    accuracy: spread(runs.map((r) => r.accuracy)),
    meanProbability: spread(runs.map((r) => r.meanProbability)),
    fallbacks: { total: runs.reduce((t, r) => t + r.fallbacks, 0), perRun: runs.map((r) => r.fallbacks), reasons },
    byCategory,
  };
}
