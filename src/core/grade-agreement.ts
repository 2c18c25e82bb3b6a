/**
 * Agreement between two graders of the same items on a nominal scale (the automatic grader and a
 * person, each grading the modal answer CORRECT / INCORRECT / NOT_ATTEMPTED, coded 0..k−1):
 * raw agreement p_o and Cohen's κ = (p_o − p_e) / (1 − p_e), p_e = Σ_c p_auto(c)·p_person(c)
 * (Cohen 1960, "A coefficient of agreement for nominal scales"); the same number as
 * scikit-learn's `cohen_kappa_score` (unweighted). κ is NaN when p_e = 1 (both graders used one
 * and the same category throughout: chance explains everything, κ is undefined), as there.
 *
 * Intervals, 95 %: raw agreement by Wilson's score interval (a binomial proportion over the items);
 * κ by the percentile bootstrap over the items (B resamples from one seeded default_rng stream,
 * as the report's bootstrap), since Cohen's large-sample variance is poor at the tens of items an
 * audit has. Replicates where κ is undefined are dropped; fewer than `minFinite` finite: NaN.
 */
import { forEachReplicate, percentileInterval } from './bootstrap';
import type { Interval } from './types';
import { wilsonInterval } from './wilson';

/** counts[a][b]: items the first grader put in category a and the second in b. */
export function confusionMatrix(first: ArrayLike<number>, second: ArrayLike<number>, k: number): number[][] {
  if (first.length !== second.length) throw new RangeError(`confusionMatrix: ${first.length} grades against ${second.length}`);
  const m = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < first.length; i++) {
    const a = first[i], b = second[i];
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && b >= 0 && a < k && b < k)) {
      throw new RangeError(`confusionMatrix: item ${i} has categories ${a}, ${b}; expected integers in 0..${k - 1}`);
    }
    m[a][b]++;
  }
  return m;
}

/** κ and p_o from a k×k table of counts (NaN for an empty table). */
export function kappaOfTable(m: readonly (readonly number[])[]): { kappa: number; agreement: number } {
  const k = m.length;
  let n = 0, diagonal = 0;
  const rows = new Array<number>(k).fill(0), cols = new Array<number>(k).fill(0);
  for (let a = 0; a < k; a++) {
    for (let b = 0; b < k; b++) {
      n += m[a][b];
      rows[a] += m[a][b];
      cols[b] += m[a][b];
    }
    diagonal += m[a][a];
  }
  if (n === 0) return { kappa: NaN, agreement: NaN };
  const po = diagonal / n;
  let pe = 0;
  for (let c = 0; c < k; c++) pe += (rows[c] / n) * (cols[c] / n);
  return { agreement: po, kappa: pe === 1 ? NaN : (po - pe) / (1 - pe) };
}

/** Cohen's κ of two gradings of the same items, categories 0..k−1. */
export function cohenKappa(first: ArrayLike<number>, second: ArrayLike<number>, k: number): number {
  return kappaOfTable(confusionMatrix(first, second, k)).kappa;
}

export interface GradeAgreement {
  items: number;
  /** counts[automatic][person]. */
  confusion: number[][];
  /** Raw agreement p_o [estimate, low, high], Wilson 95 %. */
  agreement: Interval;
  /** Cohen's κ [estimate, low, high], percentile bootstrap over the items, 95 %. */
  kappa: Interval;
}

export interface AgreementBootstrapOptions {
  /** Bootstrap resamples (default 1000). */
  B?: number;
  /** Seed of the resampling stream (default 7, the report's). */
  seed?: number;
  /** Finite replicates an interval needs (default 50). */
  minFinite?: number;
}

/** κ and raw agreement of two gradings with their intervals (see the module comment). */
export function gradeAgreement(first: ArrayLike<number>, second: ArrayLike<number>, k: number, options: AgreementBootstrapOptions = {}): GradeAgreement {
  const confusion = confusionMatrix(first, second, k);
  const { kappa, agreement } = kappaOfTable(confusion);
  const n = first.length;
  let agreeing = 0;
  for (let c = 0; c < k; c++) agreeing += confusion[c][c];
  const [lo, hi] = wilsonInterval(agreeing, n);
  const B = options.B ?? 1000;
  const reps = new Float64Array(B).fill(NaN);
  const table = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  forEachReplicate(n, { B, seed: options.seed ?? 7 }, (rows, b) => {
    for (const row of table) row.fill(0);
    for (let i = 0; i < n; i++) table[first[rows[i]]][second[rows[i]]]++;
    reps[b] = kappaOfTable(table).kappa;
  });
  return { items: n, confusion, agreement: [agreement, lo, hi], kappa: percentileInterval(kappa, reps, options.minFinite ?? 50) };
}
