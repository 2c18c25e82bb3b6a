/**
 * An interval and a test for the difference of two models' population ECEs on the same
 * questions, from the headline's own method (core/ece-inference.ts), so that a comparison says no
 * more than each model's report does.
 *
 * Why not the paired bootstrap: the plug-in ECE is biased upward near 0 and the bootstrap of a
 * difference reproduces that bias instead of removing it; where one model is near-calibrated and
 * the other is not, its interval covered the true difference in only 70–82% of data sets
 * (docs/STATISTICS.md, "Comparing reports"). The headline's inversion covers the population ECE of
 * each model, but two models' outcomes are correlated through the questions in a way the data
 * cannot pin down, so their simulations cannot be joined into one.
 *
 * Joint inversion by Bonferroni: each model's interval at level 1 − α/2 covers its ECE with
 * probability at least 1 − α/2, whatever the other model does, so both cover at once with
 * probability at least 1 − α under any dependence between the two (the union bound). Every pair
 * (θ_A, θ_B) in that rectangle is kept; the differences θ_B − θ_A it holds form the interval
 * [lo_B − hi_A, hi_B − lo_A]. It is conservative where the outcomes are strongly correlated.
 *
 * Test of "same ECE": H0 θ_A = θ_B is rejected at α when the rectangle misses the diagonal, i.e.
 * when the two intervals at 1 − α/2 are apart. p is the smallest α of a fixed grid from which on
 * (at that α and at every larger one) they stay apart; 1 when they meet even at α = 1. With 0.05
 * on the grid, p ≤ 0.05 exactly when the 95% interval excludes 0. The grid rounds p up (never
 * down), so Holm's correction on these p-values keeps its guarantee.
 */
import { eceIntervalsAtLevels, type EceInferenceOptions } from './ece-inference';

export const ECE_DIFFERENCE_METHOD = 'consistency-inversion-bonferroni';

/** α at which the intervals are checked for parting, ascending; holds 0.05 and 1. */
export const P_GRID: readonly number[] = [
  0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1,
];

export interface EceDifferenceInference {
  /** Interval for θ_B − θ_A at `level` (NaN bounds when either model's interval is NaN). */
  interval: [number, number];
  /** p of H0 θ_A = θ_B, rounded up to the grid (NaN when an interval is NaN). */
  p: number;
}

/** One model's intervals at every level the difference needs: the grid's and `level`'s. */
export interface EceLevelIntervals {
  /** Interval at 1 − α/2 for each α of P_GRID, in its order. */
  grid: [number, number][];
  /** Interval at 1 − (1 − level)/2 (the difference interval's share). */
  atLevel: [number, number];
}

/** A model's intervals at the levels a difference needs, from one set of simulations. */
export function eceLevelIntervals(
  conf: ArrayLike<number>,
  y: ArrayLike<number>,
  level = 0.95,
  options?: Omit<EceInferenceOptions, 'level'>,
): EceLevelIntervals {
  const levels = [...P_GRID.map((a) => 1 - a / 2), 1 - (1 - level) / 2];
  const all = eceIntervalsAtLevels(conf, y, levels, options);
  return { grid: all.slice(0, P_GRID.length), atLevel: all[P_GRID.length] };
}

const apart = (a: [number, number], b: [number, number]) => b[0] > a[1] || b[1] < a[0];
const isNaNInterval = (x: [number, number]) => Number.isNaN(x[0]) || Number.isNaN(x[1]);

/** The difference B − A's interval and p from each model's intervals (eceLevelIntervals). */
export function eceDifference(a: EceLevelIntervals, b: EceLevelIntervals): EceDifferenceInference {
  if (isNaNInterval(a.atLevel) || isNaNInterval(b.atLevel) || a.grid.some(isNaNInterval) || b.grid.some(isNaNInterval)) {
    return { interval: [NaN, NaN], p: NaN };
  }
  const interval: [number, number] = [b.atLevel[0] - a.atLevel[1], b.atLevel[1] - a.atLevel[0]];
  let p = 1;
  for (let k = P_GRID.length - 1; k >= 0; k--) {
    if (!apart(a.grid[k], b.grid[k])) break;
    p = P_GRID[k];
  }
  return { interval, p };
}
