/**
 * Krippendorff's α for nominal data across several coders (people auditing the same questions),
 * missing values allowed (Krippendorff, "Content Analysis", 2004, ch. 11; "Computing Krippendorff's
 * Alpha-Reliability", 2011). Values are coded 0..k−1. Each unit u coded by m_u ≥ 2 coders adds
 * to the coincidence matrix o[c][d] the number of ordered pairs of its values (c, d), i ≠ j,
 * divided by m_u − 1; units coded once are not pairable and are left out. With n_c = Σ_d o[c][d]
 * and n = Σ_c n_c:
 *   α = 1 − (n − 1) · Σ_{c≠d} o[c][d] / Σ_{c≠d} n_c · n_d.
 * α is NaN when there is no pairable value or every value is one category (no expected
 * disagreement). The interval (95 %) is the percentile bootstrap over groups of units (questions:
 * an audit's "same class" pairs of one question are not independent), B resamples from one seeded
 * default_rng stream.
 */
import { forEachReplicate, percentileInterval } from './bootstrap';
import type { AgreementBootstrapOptions } from './grade-agreement';
import type { Interval } from './types';

/** Row-major k×k coincidences of a list of units, each the values its coders gave (missing ones left out). */
export function coincidences(units: readonly (readonly number[])[], k: number, into: Float64Array = new Float64Array(k * k)): Float64Array {
  for (const values of units) addUnit(into, values, k);
  return into;
}

/** One unit's coincidences added into `o` (nothing when it has fewer than two values). */
export function addUnit(o: Float64Array, values: readonly number[], k: number): void {
  const m = values.length;
  if (m < 2) return;
  const counts = new Array<number>(k).fill(0);
  for (const v of values) {
    if (!(Number.isInteger(v) && v >= 0 && v < k)) throw new RangeError(`Krippendorff's α: value ${v} is not a category in 0..${k - 1}`);
    counts[v]++;
  }
  // Ordered pairs of distinct coders: (c, c) pairs are counts·(counts − 1), (c, d) counts_c·counts_d.
  for (let c = 0; c < k; c++) {
    if (counts[c] === 0) continue;
    for (let d = 0; d < k; d++) o[c * k + d] += (counts[c] * (c === d ? counts[c] - 1 : counts[d])) / (m - 1);
  }
}

/** α from a k×k coincidence matrix. */
export function alphaOfCoincidences(o: ArrayLike<number>, k: number): number {
  const nc = new Array<number>(k).fill(0);
  let n = 0, observed = 0;
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) {
      nc[c] += o[c * k + d];
      if (c !== d) observed += o[c * k + d];
    }
    n += nc[c];
  }
  let expected = 0;
  for (let c = 0; c < k; c++) for (let d = 0; d < k; d++) if (c !== d) expected += nc[c] * nc[d];
  if (!(n > 1) || expected === 0) return NaN;
  return 1 - ((n - 1) * observed) / expected;
}

/** Nominal α of units, each the values its coders gave, categories 0..k−1. */
export function krippendorffAlphaNominal(units: readonly (readonly number[])[], k: number): number {
  return alphaOfCoincidences(coincidences(units, k), k);
}

/**
 * α over groups of units (a group: one question's units) with its bootstrap interval over the
 * groups. Each group is given as its coincidence matrix (`coincidences` of its units).
 */
export function alphaWithInterval(groups: readonly Float64Array[], k: number, options: AgreementBootstrapOptions = {}): { alpha: Interval; groups: number } {
  const g = groups.length;
  const sum = new Float64Array(k * k);
  const total = (rows: ArrayLike<number>) => {
    sum.fill(0);
    for (let i = 0; i < rows.length; i++) {
      const o = groups[rows[i]];
      for (let j = 0; j < k * k; j++) sum[j] += o[j];
    }
    return alphaOfCoincidences(sum, k);
  };
  const point = total(Int32Array.from({ length: g }, (_, i) => i));
  const B = options.B ?? 1000;
  const reps = new Float64Array(B).fill(NaN);
  forEachReplicate(g, { B, seed: options.seed ?? 7 }, (rows, b) => (reps[b] = total(rows)));
  return { alpha: percentileInterval(point, reps, options.minFinite ?? 50), groups: g };
}
