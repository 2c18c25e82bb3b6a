/**
 * A seeded subset of a dataset's questions, drawn so that anyone can draw the same one again:
 * the order comes from `defaultRng(seed).permutation(total)` (bit-for-bit numpy's
 * `np.random.default_rng(seed).permutation(total)`), and the questions are taken in that order,
 * either the first N (plain) or, stratified, the first ones of each category until its quota is
 * filled. Quotas are proportional to the categories' sizes, the remainder going by largest
 * fraction (ties to the category seen first). The chosen questions are asked in file order.
 */
import { defaultRng } from '../../core/rng.ts';
import type { Dataset, Question, QuestionSubset } from '../../model/rows.ts';

export interface SubsetChoice {
  /** How many questions to keep. */
  n: number;
  seed: number;
  /** Draw in proportion from each category (when the questions have at least two). */
  stratify: boolean;
}

/** The category a question counts under when stratifying (one stratum for those with none). */
const stratumOf = (q: Question) => q.category ?? '';

/** Whether stratifying means anything: at least two categories among the questions. */
export function canStratify(questions: readonly Question[]): boolean {
  const seen = new Set<string>();
  for (const q of questions) {
    seen.add(stratumOf(q));
    if (seen.size > 1) return true;
  }
  return false;
}

/**
 * Per stratum, how many to take: proportional, largest remainder, ties to the stratum seen first.
 * Each exact share n·size/total is split into its whole part and its remainder (n·size) mod total,
 * both integers, so that equal fractions compare equal: in floating point 4·100/600 − 0 and
 * 4·400/600 − 2 differ in the last bit and a tie would be broken by rounding, not by the rule.
 */
export function stratumQuotas(sizes: ReadonlyMap<string, number>, n: number): Map<string, number> {
  let total = 0;
  for (const s of sizes.values()) total += s;
  const quotas = new Map<string, number>();
  const remainders: { key: string; remainder: number; order: number }[] = [];
  let given = 0;
  let order = 0;
  for (const [key, size] of sizes) {
    // n ≤ total and sizes are counts of questions, so n·size stays far below 2^53: exact.
    const scaled = n * size;
    const remainder = total > 0 ? scaled % total : 0;
    const whole = total > 0 ? (scaled - remainder) / total : 0;
    quotas.set(key, whole);
    given += whole;
    remainders.push({ key, remainder, order: order++ });
  }
  remainders.sort((a, b) => b.remainder - a.remainder || a.order - b.order);
  for (let i = 0; i < n - given; i++) quotas.set(remainders[i].key, quotas.get(remainders[i].key)! + 1);
  return quotas;
}

/**
 * The dataset cut to `choice.n` questions (unchanged when it has no more than that), with the
 * draw recorded in `subset`.
 */
export function drawSubset(dataset: Dataset, choice: SubsetChoice): Dataset {
  const all = dataset.questions;
  const n = Math.max(0, Math.floor(choice.n));
  if (n >= all.length) return dataset;
  const order = defaultRng(choice.seed).permutation(all.length);
  const stratified = choice.stratify && canStratify(all);
  const chosen = new Uint8Array(all.length);
  if (stratified) {
    const sizes = new Map<string, number>();
    for (const q of all) sizes.set(stratumOf(q), (sizes.get(stratumOf(q)) ?? 0) + 1);
    const left = stratumQuotas(sizes, n);
    for (const i of order) {
      const key = stratumOf(all[i]);
      const quota = left.get(key)!;
      if (quota > 0) {
        chosen[i] = 1;
        left.set(key, quota - 1);
      }
    }
  } else {
    for (let k = 0; k < n; k++) chosen[order[k]] = 1;
  }
  const questions = all.filter((_, i) => chosen[i] === 1);
  const subset: QuestionSubset = { of: all.length, seed: choice.seed, ids: questions.map((q) => q.id) };
  if (stratified) subset.stratifiedBy = 'category';
  return { ...dataset, questions, subset };
}
