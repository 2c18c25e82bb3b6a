/**
 * Paired bootstrap differences of statistics of two models on the same questions: one question
 * index drawn per replicate serves both models (their rows are aligned beforehand), so what the
 * two have in common (a hard question is hard for both) cancels in the difference.
 *
 * Replicates: the paper's stream (core/bootstrap.ts forEachReplicate: one default_rng(seed),
 * `integers(0, N, N)` per replicate), the same indices for every statistic, so all differences of
 * one pair are computed on the same resamples.
 *
 * Interval: the basic bootstrap interval [2d̂ − q(1−α/2), 2d̂ − q(α/2)] of d = stat(B) − stat(A)
 * (Davison & Hinkley 1997, §5.2). The plug-in ECE is biased upward by noise, by an amount that
 * depends on how a model's confidences fall into bins; the basic interval reflects the replicates'
 * extra bias back, where the percentile interval would add it a second time (docs/STATISTICS.md,
 * "Comparing reports", has the measured coverage and size).
 * p-value: two-sided, the inversion of the same interval (0 lies outside the level-(1−α) basic
 * interval exactly when p ≤ α): p = min(1, 2·min(1 + #{d* ≥ 2d̂}, 1 + #{d* ≤ 2d̂}) / (1 + B')),
 * B' the finite replicates. Too few finite replicates (under `minFinite`): interval and p NaN.
 */
import { forEachReplicate } from './bootstrap';
import { percentiles } from './percentile';

/** A statistic of one model's rows: confidences and 0/1 correctness (accuracy ignores `conf`). */
export type RowStatistic = (conf: ArrayLike<number>, y: ArrayLike<number>) => number;

/** One difference to bootstrap: stat(confB, yB) − stat(confA, yA), rows aligned (row i is the same question). */
export interface DifferenceSpec {
  confA: ArrayLike<number>;
  yA: ArrayLike<number>;
  confB: ArrayLike<number>;
  yB: ArrayLike<number>;
  stat: RowStatistic;
}

export interface PairedDifference {
  /** stat(B) − stat(A) on the aligned rows. */
  difference: number;
  /** Basic bootstrap interval at `level`; NaN bounds when too few replicates are finite. */
  interval: [number, number];
  /** Two-sided p-value of H0: no difference (the inversion of the interval). */
  p: number;
}

export interface PairedDifferenceOptions {
  /** Replicates (default 1000). */
  B?: number;
  /** Seed of the one default_rng stream (default 7). */
  seed?: number;
  /** Coverage of the interval (default 0.95). */
  level?: number;
  /** An interval needs at least this many finite replicates (default 50, as bootstrap.ts). */
  minFinite?: number;
}

/** The basic interval and its p-value from a point difference and its replicates. */
export function basicDifference(point: number, replicates: ArrayLike<number>, level = 0.95, minFinite = 50): PairedDifference {
  const finite: number[] = [];
  for (let i = 0; i < replicates.length; i++) if (Number.isFinite(replicates[i])) finite.push(replicates[i]);
  if (!Number.isFinite(point) || finite.length < minFinite) return { difference: point, interval: [NaN, NaN], p: NaN };
  const alpha = 1 - level;
  const [lo, hi] = percentiles(finite, [(100 * alpha) / 2, 100 * (1 - alpha / 2)]);
  const pivot = 2 * point;
  let ge = 0, le = 0;
  // A replicate equal to the pivot up to rounding counts on both sides (ties never make p small).
  const eps = 1e-12;
  for (const d of finite) {
    if (d >= pivot - eps) ge++;
    if (d <= pivot + eps) le++;
  }
  const p = Math.min(1, (2 * (1 + Math.min(ge, le))) / (1 + finite.length));
  return { difference: point, interval: [pivot - hi, pivot - lo], p };
}

/**
 * Every spec's difference, interval and p-value over the same B paired resamples of the N aligned
 * rows. Each distinct source array is gathered once per replicate, whatever the number of specs
 * that read it.
 */
export function pairedDifferences(specs: readonly DifferenceSpec[], N: number, options: PairedDifferenceOptions = {}): PairedDifference[] {
  const B = Math.max(1, Math.floor(options.B ?? 1000));
  const seed = options.seed ?? 7;
  const level = options.level ?? 0.95;
  const minFinite = options.minFinite ?? 50;
  const points = specs.map((s) => s.stat(s.confB, s.yB) - s.stat(s.confA, s.yA));
  const reps = specs.map(() => new Float64Array(N > 0 ? B : 0).fill(NaN));
  const buffers = new Map<ArrayLike<number>, Float64Array>();
  for (const s of specs) for (const src of [s.confA, s.yA, s.confB, s.yB]) if (!buffers.has(src)) buffers.set(src, new Float64Array(N));
  forEachReplicate(N, { B, seed }, (rows, b) => {
    for (const [src, buf] of buffers) for (let i = 0; i < N; i++) buf[i] = src[rows[i]];
    specs.forEach((s, k) => {
      const g = (a: ArrayLike<number>) => buffers.get(a)!;
      reps[k][b] = s.stat(g(s.confB), g(s.yB)) - s.stat(g(s.confA), g(s.yA));
    });
  });
  return specs.map((_, k) => basicDifference(points[k], reps[k], level, minFinite));
}
