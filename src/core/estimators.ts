/**
 * Per-question estimators of SEMECE.md ("Per question"): class sizes, modal class, Sem1,
 * Sem2 (held-out), verbalized mean, margin, standardized margin, semantic entropy.
 *
 * Edge cases, decided once here (the core's convention: never throw on empty data, NaN for
 * an undefined statistic):
 * - n = 0 (no samples): sizes all 0, modal −1, every statistic NaN, nonEmptyClasses 0.
 * - n = 1: Sem1 = 1, margin = 1 (one non-empty class). Sem2's selection block floor(1/2) is
 *   empty, so its mode is class 0 (lowest index among all-zero counts, the spec's tie rule,
 *   as numpy's argmax of zeros gives) and Sem2 = 1 if the sample is in class 0, else 0.
 * - odd n: the evaluation block gets the extra sample (|N| = floor(n/2), |E| = n − |N|).
 * - empty listed classes count as size 0 everywhere; they never win a tie against a
 *   non-empty class because they never reach the maximum unless n = 0.
 * - a single non-empty class: Sem1 = Sem2 = 1, margin 1, entropy 0.
 * - ties: the lowest class index wins (modal class and Sem2's per-split mode alike).
 * - verbalized: a null, missing or NaN entry counts 1.0 (the spec); when the question has no
 *   verbalized array at all the signal was not collected and the mean is NaN.
 * Input that breaks the contract (a class index that is not an integer in [0, K)) throws a
 * RangeError naming the sample; `checkQuestionSamples` returns the same message without
 * throwing, for readers that report problems as values.
 */
import { pairwiseMean, pairwiseSum } from './pairwise';
import { defaultRng } from './rng';
import type { QuestionEstimates, QuestionSamples } from './types';

/** Options of Sem2. Reference mode (the paper's numbers) is the default of every field. */
export interface Sem2Options {
  /** Number of random half splits R (default 10). */
  R?: number;
  /** Seed of the `default_rng` stream, reset for every question (default 0). */
  seed?: number | bigint;
  /** Size of the selection block N as a function of n (default floor(n/2)); clamped to [0, n−1]. */
  selectionSize?: (n: number) => number;
}

export const SEM2_REFERENCE = { R: 10, seed: 0 } as const;

const referenceSelection = (n: number): number => Math.floor(n / 2);

/** Why `q` breaks the estimators' contract, or null when it is fine. */
export function checkQuestionSamples(q: QuestionSamples): string | null {
  const K = q.nClasses;
  if (!Number.isInteger(K) || K < 0) return `nClasses must be a non-negative integer, got ${K}`;
  const a = q.assignments;
  for (let i = 0; i < a.length; i++) {
    const k = a[i];
    if (!Number.isInteger(k) || k < 0 || k >= K) {
      return `sample ${i}: class ${k} is not an integer in [0, ${K}) (nClasses = ${K})`;
    }
  }
  return null;
}

function assertValid(assignments: ArrayLike<number>, K: number): void {
  const problem = checkQuestionSamples({ assignments, nClasses: K });
  if (problem !== null) throw new RangeError(problem);
}

/** sizes[k] = number of samples in class k, for the K listed classes. */
export function classSizes(assignments: ArrayLike<number>, K: number): number[] {
  assertValid(assignments, K);
  const sizes = new Array<number>(K).fill(0);
  for (let i = 0; i < assignments.length; i++) sizes[assignments[i]]++;
  return sizes;
}

/** The first class with the largest size; −1 when there is no sample at all. */
export function modalClass(sizes: ArrayLike<number>): number {
  let best = -1;
  let bestSize = 0;
  for (let k = 0; k < sizes.length; k++) {
    if (sizes[k] > bestSize) {
      best = k;
      bestSize = sizes[k];
    }
  }
  return best;
}

function total(sizes: ArrayLike<number>): number {
  let n = 0;
  for (let k = 0; k < sizes.length; k++) n += sizes[k];
  return n;
}

/** Sem1 (same-sample) = max(sizes) / n. NaN for n = 0. */
export function sem1(sizes: ArrayLike<number>): number {
  const n = total(sizes);
  if (n === 0) return NaN;
  let max = 0;
  for (let k = 0; k < sizes.length; k++) if (sizes[k] > max) max = sizes[k];
  return max / n;
}

// Permutations depend only on (n, R, seed): questions with the same n share them. The cache is
// what makes 40,000 questions cheap (one PCG64 run per distinct n, not per question).
const splitCache = new Map<string, Int32Array>();
const SPLIT_CACHE_LIMIT = 512;

/**
 * The R permutations of 0..n−1 Sem2 uses, concatenated (split r is entries r·n .. r·n+n−1):
 * `permutation(n)` R times from one fresh `default_rng(seed)`. Shared; do not modify.
 */
export function heldOutPermutations(n: number, R: number = SEM2_REFERENCE.R, seed: number | bigint = SEM2_REFERENCE.seed): Int32Array {
  const key = `${n}|${R}|${seed}`;
  let perms = splitCache.get(key);
  if (perms === undefined) {
    perms = new Int32Array(n * R);
    const rng = defaultRng(seed);
    for (let r = 0; r < R; r++) perms.set(rng.permutation(n), r * n);
    if (splitCache.size >= SPLIT_CACHE_LIMIT) splitCache.clear();
    splitCache.set(key, perms);
  }
  return perms;
}

/** One held-out split: the selection block's mode z, its hits in the evaluation block, |E| and c_r. */
export interface HeldOutSplit {
  z: number;
  hits: number;
  m: number;
  c: number;
}

function resolveOptions(n: number, options: Sem2Options | undefined) {
  const R = options?.R ?? SEM2_REFERENCE.R;
  const seed = options?.seed ?? SEM2_REFERENCE.seed;
  if (!Number.isInteger(R) || R < 1) throw new RangeError(`Sem2: R must be a positive integer, got ${R}`);
  const wanted = (options?.selectionSize ?? referenceSelection)(n);
  if (!Number.isFinite(wanted)) throw new RangeError(`Sem2: selection size for n = ${n} is ${wanted}`);
  const selection = Math.max(0, Math.min(n - 1, Math.floor(wanted)));
  return { R, seed, selection };
}

/** |N|, the selection block's size, for n samples under these options (what Sem2 uses). */
export function selectionBlockSize(n: number, options?: Sem2Options): number {
  return resolveOptions(n, options).selection;
}

// Scratch buffers reused across calls (single-threaded per worker); grown on demand.
let counts = new Int32Array(64);
let cValues = new Float64Array(16);
let verbalizedScratch = new Float64Array(64);

/**
 * Runs the held-out splits; calls `visit` for each when given (the trace), returns Sem2.
 * `validated`: the caller has already checked the assignments against K.
 * Kept as one loop so the fast path and the trace cannot drift apart.
 */
function runHeldOut(
  assignments: ArrayLike<number>,
  K: number,
  options: Sem2Options | undefined,
  {
    visit,
    validated = false,
    sizes,
  }: {
    visit?: (split: HeldOutSplit) => void;
    validated?: boolean;
    /** The class sizes over all n samples (classSizes), when the caller has them: the hits then need no second pass. */
    sizes?: ArrayLike<number>;
  } = {},
): number {
  if (!validated) assertValid(assignments, K);
  const n = assignments.length;
  if (n === 0) return NaN;
  const { R, seed, selection } = resolveOptions(n, options);
  const perms = heldOutPermutations(n, R, seed);
  if (counts.length < K) counts = new Int32Array(Math.max(K, 2 * counts.length));
  if (cValues.length < R) cValues = new Float64Array(Math.max(R, 2 * cValues.length));
  const m = n - selection;
  // Locals, not the module's `let` buffers: each read of a module-level `let` in the loop is a
  // context load with a hole check (about half of Sem2's time at 40,000 questions).
  const counted = counts;
  const cs = cValues;
  for (let r = 0; r < R; r++) {
    const base = r * n;
    counted.fill(0, 0, K);
    for (let i = 0; i < selection; i++) counted[assignments[perms[base + i]]]++;
    let z = 0;
    for (let k = 1; k < K; k++) if (counted[k] > counted[z]) z = k;
    // z's samples outside the selection block are all of z's samples less those inside it.
    let hits = 0;
    if (sizes) hits = sizes[z] - counted[z];
    else for (let i = selection; i < n; i++) if (assignments[perms[base + i]] === z) hits++;
    const c = hits / m;
    cs[r] = c;
    visit?.({ z, hits, m, c });
  }
  return pairwiseMean(cs.subarray(0, R));
}

/**
 * Sem2 (held-out): mean over R random splits of the frequency, in the evaluation block, of the
 * selection block's mode. Reference mode by default (R = 10, default_rng(0) per question,
 * |N| = floor(n/2)). NaN for n = 0.
 */
export function sem2HeldOut(assignments: ArrayLike<number>, K: number, options?: Sem2Options): number {
  return runHeldOut(assignments, K, options);
}

/** Sem2 with every split's intermediate values (for teaching views and for checking the reference). */
export function sem2Trace(assignments: ArrayLike<number>, K: number, options?: Sem2Options): { sem2: number; splits: HeldOutSplit[] } {
  const splits: HeldOutSplit[] = [];
  const sem2 = runHeldOut(assignments, K, options, { visit: (s) => splits.push(s) });
  return { sem2, splits };
}

/**
 * Mean stated confidence: null, missing or NaN entries count 1.0, others are clamped to [0, 1];
 * pairwise-summed like np.mean. NaN for an empty list.
 */
export function verbalizedMean(verbalized: ArrayLike<number | null | undefined>): number {
  const n = verbalized.length;
  if (n === 0) return NaN;
  if (verbalizedScratch.length < n) verbalizedScratch = new Float64Array(Math.max(n, 2 * verbalizedScratch.length));
  const values = verbalizedScratch;
  for (let i = 0; i < n; i++) {
    const v = verbalized[i];
    values[i] = v === null || v === undefined || Number.isNaN(v) ? 1.0 : Math.min(1, Math.max(0, v));
  }
  return pairwiseSum(values, 0, n) / n;
}

/** Δ = (largest − second largest size) / n; 1.0 with one non-empty class; NaN for n = 0. */
export function margin(sizes: ArrayLike<number>): number {
  const n = total(sizes);
  if (n === 0) return NaN;
  let first = 0;
  let second = 0;
  let nonEmpty = 0;
  for (let k = 0; k < sizes.length; k++) {
    const s = sizes[k];
    if (s > 0) nonEmpty++;
    if (s > first) {
      second = first;
      first = s;
    } else if (s > second) {
      second = s;
    }
  }
  if (nonEmpty <= 1) return 1.0;
  return (first - second) / n;
}

/** √n·Δ. */
export function standardizedMargin(marginValue: number, n: number): number {
  return Math.sqrt(n) * marginValue;
}

/** H = −Σ p_k ln p_k over non-empty classes (nats); 0 for one class, NaN for n = 0. */
export function semanticEntropy(sizes: ArrayLike<number>): number {
  const n = total(sizes);
  if (n === 0) return NaN;
  let h = 0;
  for (let k = 0; k < sizes.length; k++) {
    if (sizes[k] > 0) {
      const p = sizes[k] / n;
      h -= p * Math.log(p);
    }
  }
  return h;
}

export interface EstimateOptions {
  sem2?: Sem2Options;
}

/** Every per-question number of the spec for one question. */
export function estimateQuestion(q: QuestionSamples, options?: EstimateOptions): QuestionEstimates {
  const sizes = classSizes(q.assignments, q.nClasses);
  const n = q.assignments.length;
  let nonEmptyClasses = 0;
  for (const s of sizes) if (s > 0) nonEmptyClasses++;
  const marginValue = margin(sizes);
  return {
    n,
    sizes,
    modal: modalClass(sizes),
    sem1: sem1(sizes),
    sem2: runHeldOut(q.assignments, q.nClasses, options?.sem2, { validated: true, sizes }), // classSizes validated
    verbalized: q.verbalized === undefined ? NaN : verbalizedMean(q.verbalized),
    margin: marginValue,
    stdMargin: n === 0 ? NaN : standardizedMargin(marginValue, n),
    entropy: semanticEntropy(sizes),
    nonEmptyClasses,
  };
}
