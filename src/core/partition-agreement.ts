/**
 * Agreement between two partitions of the same answers (the clusterer's classes and a person's),
 * through the pairs of answers: a pair is "same" in a partition when both answers share a class.
 * With the automatic partition as the prediction and the person's as the reference:
 *   tp = pairs same in both, fp = same only in the automatic one (a wrong merge), fn = same only
 *   in the person's (a wrong split), tn = different in both.
 * Pairwise precision tp/(tp+fp): of the pairs the clusterer merged, the share the person keeps
 * together; recall tp/(tp+fn): of the pairs the person puts together, the share the clusterer did.
 * The adjusted Rand index (Hubert & Arabie 1985, "Comparing partitions") from the same counts:
 *   ARI = 2(tp·tn − fn·fp) / ((tp+fn)(fn+tn) + (tp+fp)(fp+tn)),
 * which is scikit-learn's `adjusted_rand_score` (it counts ordered pairs, twice each; the ratio is
 * the same), with its convention that ARI = 1 when fp = fn = 0 (identical partitions, including
 * a single answer or all singletons on both sides, where the formula is 0/0).
 *
 * Over an audit's questions: the mean ARI per question, and precision and recall pooled over every
 * question's pairs; 95 % intervals by the percentile bootstrap over the questions (B resamples from
 * one seeded default_rng stream), since a question's pairs are not independent of each other.
 */
import { forEachReplicate, percentileInterval } from './bootstrap';
import type { AgreementBootstrapOptions } from './grade-agreement';
import type { Interval } from './types';

export interface PairCounts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

/** Pairs of answers by whether each partition (labels per answer, any integers) puts them together. */
export function pairCounts(automatic: ArrayLike<number>, person: ArrayLike<number>): PairCounts {
  const n = automatic.length;
  if (person.length !== n) throw new RangeError(`pairCounts: ${n} answers against ${person.length}`);
  const cell = new Map<string, number>(), rows = new Map<number, number>(), cols = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const a = automatic[i], b = person[i];
    const key = `${a},${b}`;
    cell.set(key, (cell.get(key) ?? 0) + 1);
    rows.set(a, (rows.get(a) ?? 0) + 1);
    cols.set(b, (cols.get(b) ?? 0) + 1);
  }
  const pairs = (m: number) => (m * (m - 1)) / 2;
  let both = 0, sameAuto = 0, samePerson = 0;
  for (const m of cell.values()) both += pairs(m);
  for (const m of rows.values()) sameAuto += pairs(m);
  for (const m of cols.values()) samePerson += pairs(m);
  const tp = both, fp = sameAuto - both, fn = samePerson - both;
  return { tp, fp, fn, tn: pairs(n) - tp - fp - fn };
}

/** The adjusted Rand index from pair counts (1 when the partitions agree on every pair). */
export function ariOfPairs({ tp, fp, fn, tn }: PairCounts): number {
  if (fp === 0 && fn === 0) return 1;
  return (2 * (tp * tn - fn * fp)) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn));
}

/** The adjusted Rand index of two labelings of the same answers. */
export function adjustedRandIndex(automatic: ArrayLike<number>, person: ArrayLike<number>): number {
  return ariOfPairs(pairCounts(automatic, person));
}

/** Pairwise precision and recall of "same class" (NaN where no pair is merged by that side). */
export function pairwisePrecisionRecall({ tp, fp, fn }: PairCounts): { precision: number; recall: number } {
  return { precision: tp + fp > 0 ? tp / (tp + fp) : NaN, recall: tp + fn > 0 ? tp / (tp + fn) : NaN };
}

/** Labels per answer from a list of classes of answer indices (a partition of 0..n−1). */
export function labelsOfClasses(classes: readonly (readonly number[])[], n: number): Int32Array {
  const labels = new Int32Array(n).fill(-1);
  classes.forEach((members, c) => {
    for (const i of members) labels[i] = c;
  });
  return labels;
}

export interface PartitionAgreement {
  questions: number;
  /** Mean ARI over the questions [estimate, low, high]. */
  ari: Interval;
  /** Pooled pairwise precision and recall [estimate, low, high]. */
  precision: Interval;
  recall: Interval;
  /** The pooled pair counts. */
  pairs: PairCounts;
  /** Questions whose two partitions differ on some pair. */
  differing: number;
}

/** Agreement of partitions over questions, each given as its pair counts (see the module comment). */
export function partitionAgreement(perQuestion: readonly PairCounts[], options: AgreementBootstrapOptions = {}): PartitionAgreement {
  const k = perQuestion.length;
  const ari = Float64Array.from(perQuestion, ariOfPairs);
  const pooled = (rows: ArrayLike<number>): PairCounts => {
    const s = { tp: 0, fp: 0, fn: 0, tn: 0 };
    for (let i = 0; i < rows.length; i++) {
      const p = perQuestion[rows[i]];
      s.tp += p.tp; s.fp += p.fp; s.fn += p.fn; s.tn += p.tn;
    }
    return s;
  };
  const mean = (rows: ArrayLike<number>) => {
    let s = 0;
    for (let i = 0; i < rows.length; i++) s += ari[rows[i]];
    return rows.length > 0 ? s / rows.length : NaN;
  };
  const all = Int32Array.from({ length: k }, (_, i) => i);
  const pairs = pooled(all);
  const point = pairwisePrecisionRecall(pairs);
  const B = options.B ?? 1000;
  const reps = { ari: new Float64Array(B).fill(NaN), precision: new Float64Array(B).fill(NaN), recall: new Float64Array(B).fill(NaN) };
  forEachReplicate(k, { B, seed: options.seed ?? 7 }, (rows, b) => {
    reps.ari[b] = mean(rows);
    const pr = pairwisePrecisionRecall(pooled(rows));
    reps.precision[b] = pr.precision;
    reps.recall[b] = pr.recall;
  });
  const minFinite = options.minFinite ?? 50;
  return {
    questions: k,
    ari: percentileInterval(mean(all), reps.ari, minFinite),
    precision: percentileInterval(point.precision, reps.precision, minFinite),
    recall: percentileInterval(point.recall, reps.recall, minFinite),
    pairs,
    differing: perQuestion.filter((p) => p.fp > 0 || p.fn > 0).length,
  };
}
