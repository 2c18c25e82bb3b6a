/**
 * Does calibration differ across slices (subgroups) of the questions? A permutation test of the
 * slice labels within each confidence bin (docs/STATISTICS.md, "Calibration by subgroup").
 *
 * Statistic: the between-slice sum of squares of the calibration gaps within each confidence bin,
 * T = Σ_b Σ_s n_sb·(ḡ_sb − ḡ_b)², with r_i = y_i − c_i the row's gap, ḡ_sb the mean gap of slice s's
 * rows in bin b and ḡ_b that of all the bin's rows (a one-way analysis of variance of the gaps by
 * slice, summed over bins). It is 0 when every slice misses by the same amount in every bin, and
 * grows when slices miss by different amounts or in different directions. (A sum of per-slice
 * ECEs would not do: when every slice is overconfident in a bin the absolute values add up to the
 * pooled one, and slices overconfident by different amounts would look alike.)
 *
 * Null: within each bin, a question's slice tells nothing about its residual (P(Y=1 | bin, slice)
 * = P(Y=1 | bin), the confidences exchangeable too). Shuffling the slice labels among the rows of
 * each bin keeps every (slice, bin) count, so slices of different sizes and different confidence
 * mixes are compared with themselves; only which residuals fall in which slice changes. Under
 * the null every such shuffle is equally likely, so p = (1 + #{T* ≥ T}) / (1 + draws) is a valid
 * p-value at any size (a Monte Carlo permutation test). Seeded: one default_rng stream.
 */
import { equalWidthBinIndex, equalWidthEdges } from './binning';
import { defaultRng } from './rng';

export interface SliceHeterogeneityOptions {
  /** Equal-width bins (default 10, the paper's). */
  bins?: number;
  /** Shuffles (default 999). */
  draws?: number;
  /** Seed of the default_rng stream (default 7). */
  seed?: number;
}

export interface SliceHeterogeneity {
  /** T, the between-slice sum of squares of the within-bin gaps (divided by N, a mean per question). */
  statistic: number;
  /** One-sided permutation p-value: large W counts against equal calibration. */
  p: number;
  draws: number;
  /** Stable id of the method. */
  method: string;
}

export const SLICE_HETEROGENEITY_METHOD = 'within-bin-permutation';

/**
 * The test for rows with confidence `conf`, outcome `y` (0/1) and slice index `slice` (0..S−1).
 * NaN statistic and p with fewer than two non-empty slices or a non-finite confidence.
 */
export function sliceHeterogeneity(
  conf: ArrayLike<number>,
  y: ArrayLike<number>,
  slice: ArrayLike<number>,
  options: SliceHeterogeneityOptions = {},
): SliceHeterogeneity {
  const L = Math.max(1, Math.floor(options.bins ?? 10));
  const draws = options.draws ?? 999;
  const N = Math.min(conf.length, y.length, slice.length);
  const nan = { statistic: NaN, p: NaN, draws, method: SLICE_HETEROGENEITY_METHOD };
  let S = 0;
  const present = new Set<number>();
  for (let i = 0; i < N; i++) {
    if (!Number.isFinite(conf[i])) return nan;
    S = Math.max(S, slice[i] + 1);
    present.add(slice[i]);
  }
  if (present.size < 2) return nan;
  const binOf = equalWidthBinIndex(conf, equalWidthEdges(L), N);
  // Rows grouped by bin: each bin's residuals, and the slice labels in that bin (shuffled below).
  const byBin: number[][] = Array.from({ length: L }, () => []);
  for (let i = 0; i < N; i++) byBin[binOf[i]].push(i);
  const residual = byBin.map((rows) => Float64Array.from(rows, (i) => y[i] - conf[i]));
  const labels = byBin.map((rows) => Int32Array.from(rows, (i) => slice[i]));
  // Each bin's slice counts are fixed by the shuffle, and so is its total gap: only which gaps
  // fall in which slice changes, so T is computed from the per-slice sums of the gaps alone.
  const counts = labels.map((lab) => {
    const c = new Float64Array(S);
    for (let k = 0; k < lab.length; k++) c[lab[k]]++;
    return c;
  });
  const totals = residual.map((r) => r.reduce((a, x) => a + x, 0));
  const sums = new Float64Array(S);
  const within = (): number => {
    let total = 0;
    for (let b = 0; b < L; b++) {
      const r = residual[b];
      const lab = labels[b];
      if (r.length === 0) continue;
      sums.fill(0);
      for (let k = 0; k < r.length; k++) sums[lab[k]] += r[k];
      const mean = totals[b] / r.length;
      for (let s = 0; s < S; s++) if (counts[b][s] > 0) total += (sums[s] - counts[b][s] * mean) ** 2 / counts[b][s];
    }
    return total / N;
  };
  const observed = within();
  const rng = defaultRng(options.seed ?? 7);
  let atLeast = 0;
  // A relative tolerance, so a shuffle that only reorders the same sums counts as ≥ despite rounding.
  const bar = observed * (1 - 1e-12);
  for (let d = 0; d < draws; d++) {
    for (const lab of labels) {
      for (let i = lab.length - 1; i >= 1; i--) {
        const j = rng.interval(i);
        const t = lab[i]; lab[i] = lab[j]; lab[j] = t;
      }
    }
    if (within() >= bar) atLeast++;
  }
  return { statistic: observed, p: (1 + atLeast) / (1 + draws), draws, method: SLICE_HETEROGENEITY_METHOD };
}
