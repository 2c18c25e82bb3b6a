/**
 * Selective prediction with a threshold chosen on held-out questions: the model answers a
 * question when its confidence is at least t and abstains otherwise. Choosing t on the same
 * questions it is then judged on would flatter it (the threshold is fitted to their noise), so
 * the questions are split in two:
 *
 * 1. Split: `default_rng(seed).permutation(N)` (numpy's, as everywhere in the app); its first
 *    ⌊N/2⌋ questions form the selection half, the rest the evaluation half (with odd N the
 *    evaluation half gets the extra question), as Sem2 splits its samples.
 * 2. Choose: among the distinct confidences of the selection half, t is the lowest whose
 *    selective error there (errors among the questions with confidence ≥ t, over their count) is
 *    at most the target. The selective error is not monotone in t, so every candidate is tried;
 *    the lowest that passes answers the most questions. When none passes, t is null: abstain on
 *    everything.
 * 3. Evaluate: on the evaluation half alone, coverage = answered ÷ questions and selective
 *    error = errors ÷ answered, each with a 95 % Wilson score interval. Given the threshold
 *    (fixed by the other half), answered and errors are binomial counts, so a binomial interval
 *    is sound; the error's interval is conditional on the number answered.
 *
 * An error is Y = 0, as in every other number of the report (AURC included), so a reply the
 * grader marked NOT_ATTEMPTED counts as an error when it is answered. The SimpleQA-style counts
 * keep it apart: correct, incorrect, and not attempted = abstained (below t) + declined (the
 * model's own reply was graded not attempted).
 */
import { defaultRng } from './rng';
import { wilsonInterval } from './wilson';

/** The normal quantile of the 95 % intervals. */
export const ABSTENTION_Z = 1.96;

export interface HeldOutSplit {
  /** Row indices of the selection half (where the threshold is chosen), in permutation order. */
  selection: Int32Array;
  /** Row indices of the evaluation half (where it is judged). */
  evaluation: Int32Array;
}

/** The seeded half/half split of N rows (step 1). */
export function heldOutSplit(n: number, seed: number): HeldOutSplit {
  const perm = defaultRng(seed).permutation(n);
  const half = Math.floor(n / 2);
  return { selection: perm.slice(0, half), evaluation: perm.slice(half) };
}

export interface ThresholdChoice {
  /** The chosen threshold, or null when no confidence of the selection half meets the target (abstain on all). */
  threshold: number | null;
  /** Selection-half questions answered at that threshold and the errors among them (0 and 0 when null). */
  answered: number;
  errors: number;
  /** Every candidate tried, most confident first: threshold, answered, errors (for the view and for checking). */
  candidates: { threshold: number; answered: number; errors: number }[];
}

/**
 * Step 2 on the given rows: the lowest distinct confidence t with errors(conf ≥ t) ÷
 * answered(conf ≥ t) ≤ target. `rows` must not hold a NaN confidence.
 */
export function chooseThreshold(conf: ArrayLike<number>, y: ArrayLike<number>, rows: ArrayLike<number>, target: number): ThresholdChoice {
  const sorted = Array.from(rows).sort((a, b) => conf[b] - conf[a] || a - b);
  const candidates: ThresholdChoice['candidates'] = [];
  let chosen: ThresholdChoice = { threshold: null, answered: 0, errors: 0, candidates };
  let errors = 0;
  for (let p = 0; p < sorted.length; ) {
    const t = conf[sorted[p]];
    while (p < sorted.length && conf[sorted[p]] === t) errors += 1 - y[sorted[p++]];
    candidates.push({ threshold: t, answered: p, errors });
    // Lower thresholds come later: the last one that passes is the lowest.
    if (errors / p <= target) chosen = { threshold: t, answered: p, errors, candidates };
  }
  return chosen;
}

export interface SelectiveCounts {
  questions: number;
  answered: number;
  /** Answered with Y = 0 (incorrect or declined). */
  errors: number;
  /** SimpleQA's three outcomes: answered and right; answered and wrong; abstained or declined. */
  correct: number;
  incorrect: number;
  notAttempted: number;
  /** Of notAttempted: below the threshold. */
  abstained: number;
  /** Of notAttempted: answered, but the model's own reply was graded not attempted. */
  declined: number;
  /** answered ÷ questions, with its Wilson interval [estimate, low, high]. */
  coverage: [number, number, number];
  /** errors ÷ answered (NaN when nothing is answered), with its Wilson interval. */
  error: [number, number, number];
}

/** Step 3: answer the rows with conf ≥ threshold (none when threshold is null) and count. */
export function selectiveCounts(
  conf: ArrayLike<number>,
  y: ArrayLike<number>,
  rows: ArrayLike<number>,
  threshold: number | null,
  declined?: ArrayLike<number | boolean>,
  z = ABSTENTION_Z,
): SelectiveCounts {
  let answered = 0;
  let errors = 0;
  let correct = 0;
  let refusedAnswered = 0;
  for (let p = 0; p < rows.length; p++) {
    const i = rows[p];
    if (threshold === null || !(conf[i] >= threshold)) continue;
    answered++;
    if (y[i] === 1) correct++;
    else {
      errors++;
      if (declined?.[i]) refusedAnswered++;
    }
  }
  const questions = rows.length;
  const cov = wilsonInterval(answered, questions, z);
  const err = wilsonInterval(errors, answered, z);
  return {
    questions,
    answered,
    errors,
    correct,
    incorrect: errors - refusedAnswered,
    notAttempted: questions - answered + refusedAnswered,
    abstained: questions - answered,
    declined: refusedAnswered,
    coverage: [questions > 0 ? answered / questions : NaN, cov[0], cov[1]],
    error: [answered > 0 ? errors / answered : NaN, err[0], err[1]],
  };
}

export interface AbstentionResult {
  target: number;
  seed: number;
  /** null: abstain on every question (no threshold met the target, or too few questions). */
  threshold: number | null;
  /** Why there is no threshold, when there is none. */
  reason?: string;
  selection: SelectiveCounts;
  evaluation: SelectiveCounts;
  choice: ThresholdChoice;
}

export interface AbstentionOptions {
  /** The largest selective error accepted, in [0, 1]. */
  target: number;
  seed: number;
  /** Per row: the model declined (graded not attempted); only for the counts. */
  declined?: ArrayLike<number | boolean>;
}

/** Steps 1–3 over the first min(conf.length, y.length) rows. */
export function abstention(conf: ArrayLike<number>, y: ArrayLike<number>, options: AbstentionOptions): AbstentionResult {
  const { target, seed, declined } = options;
  if (!(target >= 0 && target <= 1)) throw new RangeError(`abstention: the target error must be a number in [0, 1], got ${target}`);
  const n = Math.min(conf.length, y.length);
  const split = heldOutSplit(n, seed);
  let reason: string | undefined;
  let choice: ThresholdChoice = { threshold: null, answered: 0, errors: 0, candidates: [] };
  let bad = -1;
  for (let i = 0; i < n && bad < 0; i++) if (!Number.isFinite(conf[i])) bad = i;
  if (bad >= 0) reason = `question ${bad + 1} has no confidence for this signal`;
  else if (split.selection.length === 0) reason = 'too few questions to hold half of them out (at least 2 are needed)';
  else {
    choice = chooseThreshold(conf, y, split.selection, target);
    if (choice.threshold === null) reason = `no threshold keeps the selective error of the selection half at or below ${target}`;
  }
  const threshold = choice.threshold;
  return {
    target,
    seed,
    threshold,
    ...(reason ? { reason } : {}),
    selection: selectiveCounts(conf, y, split.selection, threshold, declined),
    evaluation: selectiveCounts(conf, y, split.evaluation, threshold, declined),
    choice,
  };
}
