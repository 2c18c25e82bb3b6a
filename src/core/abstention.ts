/**
 * Selective prediction with a threshold chosen on held-out questions: the model answers a
 * question when its confidence is at least t and abstains otherwise. Choosing t on the same
 * questions it is then judged on would flatter it (the threshold is fitted to their noise), so
 * the questions are split in two:
 *
 * 1. Split: `default_rng(seed).permutation(N)` (numpy's, as everywhere in the app); its first
 *    ⌊N/2⌋ questions form the selection half, the rest the evaluation half (with odd N the
 *    evaluation half gets the extra question), as Sem2 splits its samples.
 * 2. Choose, with a guarantee (Geifman & El-Yaniv 2017, "Selective classification for deep neural
 *    networks", whose SGR bounds the selected set's risk by a binomial tail): the thresholds tried
 *    are the selection half's distinct confidences, thinned to at most ABSTENTION_MAX_TRIED (the
 *    confidence at which 2%, 4%, …, 100% of the half is answered — chosen from the confidences
 *    alone, never from the outcomes). For each, the exact (Clopper & Pearson 1934) upper bound of
 *    the selective error at confidence 1 − δ/m, m the number tried (Bonferroni over the
 *    thresholds tried; SGR's binary search would test fewer, but assumes a risk monotone in t,
 *    which it is not). t is the lowest threshold whose bound is at most the target: with
 *    probability at least 1 − δ over the selection half's outcomes, every threshold whose true
 *    selective error exceeds the target has a bound above it, so the chosen one's true selective
 *    error is at most the target. When none passes, t is null: abstain on everything. (Few
 *    questions cannot certify a low error at all: 0 errors in n answered bound it by 1 − (δ/m)^(1/n).)
 * 3. Evaluate: on the evaluation half alone, coverage = answered ÷ questions and selective
 *    error = errors ÷ answered, each with a 95 % Wilson score interval. Given the threshold
 *    (fixed by the other half), answered and errors are binomial counts, so a binomial interval
 *    is sound; the error's interval is conditional on the number answered.
 * 4. Repeat steps 1–3 over ABSTENTION_SPLITS seeded splits (seed, seed + 1, …) and report the spread of
 *    the held-out error (median, range) and how often it exceeded the target: one split is one
 *    draw, and the figures of a single split move with the seed.
 *
 * `chooseThreshold` (no guarantee: the lowest t whose selection-half error is at most the
 * target) is kept for comparison and for reading the candidates.
 *
 * An error is Y = 0, as in every other number of the report (AURC included), so a reply the
 * grader marked NOT_ATTEMPTED counts as an error when it is answered. The SimpleQA-style counts
 * keep it apart: correct, incorrect, and not attempted = abstained (below t) + declined (the
 * model's own reply was graded not attempted).
 */
import { clopperPearsonUpper, upperBoundAtMost } from './binomial-bound';
import { ascendingOrder } from './ranking';
import { defaultRng } from './rng';
import { wilsonInterval } from './wilson';

/** The normal quantile of the 95 % intervals. */
export const ABSTENTION_Z = 1.96;
/** The guarantee holds with probability at least 1 − δ. */
export const ABSTENTION_DELTA = 0.05;
/** At most this many thresholds are tried (Bonferroni: each bound at 1 − δ/m). */
export const ABSTENTION_MAX_TRIED = 50;
/** Seeded splits over which the held-out error's spread is shown. */
export const ABSTENTION_SPLITS = 20;

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

/**
 * The split depends only on (N, seed), and a report splits every signal's rows by the same 20
 * seeds (abstentionSpread) plus the view's: the last RECENT_SPLITS are kept, so each permutation
 * of N rows is drawn once per report, not once per signal. Only read here, never handed out.
 */
const RECENT_SPLITS = 32;
const recentSplits = new Map<string, HeldOutSplit>();

function recentSplit(n: number, seed: number): HeldOutSplit {
  const key = `${n}/${seed}`;
  let split = recentSplits.get(key);
  if (!split) {
    split = heldOutSplit(n, seed);
    if (recentSplits.size >= RECENT_SPLITS) recentSplits.delete(recentSplits.keys().next().value!);
    recentSplits.set(key, split);
  }
  return split;
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
/**
 * Every row, most confident first, ties by row index: sorted once for many splits of the same rows.
 * The order of `sort((a, b) => conf[b] − conf[a] || a − b)`, as ranking.ts's counting sort of the
 * negated confidences (ascending −c is descending c, ties in input order), O(N + D log D) instead of
 * O(N log N) comparator calls. No NaN (the callers check first).
 */
export function descendingOrder(conf: ArrayLike<number>, n = conf.length): Int32Array {
  const negated = new Float64Array(n);
  for (let i = 0; i < n; i++) negated[i] = -conf[i];
  return ascendingOrder(negated, n);
}

/** `rows` most confident first (ties by index): from `order` (descendingOrder) when given, in O(N). */
function sortRows(conf: ArrayLike<number>, rows: ArrayLike<number>, order?: Int32Array): ArrayLike<number> {
  if (!order) return Array.from(rows).sort((a, b) => conf[b] - conf[a] || a - b);
  const member = new Uint8Array(order.length);
  for (let p = 0; p < rows.length; p++) member[rows[p]] = 1;
  const out = new Int32Array(rows.length);
  let k = 0;
  for (let p = 0; p < order.length; p++) if (member[order[p]]) out[k++] = order[p];
  return out;
}

export function chooseThreshold(conf: ArrayLike<number>, y: ArrayLike<number>, rows: ArrayLike<number>, target: number, order?: Int32Array): ThresholdChoice {
  const sorted = sortRows(conf, rows, order);
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

export interface GuaranteedChoice {
  /** The chosen threshold, or null when no threshold tried has a bound at or below the target. */
  threshold: number | null;
  /** Selection-half questions answered at that threshold, the errors among them, and the bound (NaN when null). */
  answered: number;
  errors: number;
  bound: number;
  delta: number;
  /** Thresholds tried (m); each bound is at confidence 1 − delta/m. */
  tried: number;
  /** Every threshold tried, most confident first, with its Clopper–Pearson upper bound. */
  candidates: { threshold: number; answered: number; errors: number; bound: number }[];
}

/**
 * Step 2 with the guarantee: among at most `maxTried` thresholds (the selection half's distinct
 * confidences, or, with more, those at which ⌈j·m/maxTried⌉ questions are answered, j = 1…maxTried,
 * each extended to the end of its tie), the lowest whose Clopper–Pearson upper bound of the
 * selective error at confidence 1 − δ/tried is at most the target. `rows` must not hold a NaN confidence.
 */
export function chooseGuaranteedThreshold(
  conf: ArrayLike<number>,
  y: ArrayLike<number>,
  rows: ArrayLike<number>,
  target: number,
  delta = ABSTENTION_DELTA,
  maxTried = ABSTENTION_MAX_TRIED,
  order?: Int32Array,
): GuaranteedChoice {
  // The tie groups' ends, most confident first: threshold, answered and errors at each (typed
  // arrays: a continuous signal has as many groups as rows).
  const sorted = sortRows(conf, rows, order);
  const m = sorted.length;
  const ends = new Int32Array(m);
  const errs = new Int32Array(m);
  let groups = 0;
  let errors = 0;
  for (let p = 0; p < m; ) {
    const t = conf[sorted[p]];
    while (p < m && conf[sorted[p]] === t) errors += 1 - y[sorted[p++]];
    ends[groups] = p;
    errs[groups++] = errors;
  }
  const at = (g: number) => ({ threshold: conf[sorted[ends[g] - 1]], answered: ends[g], errors: errs[g] });
  const tried: { threshold: number; answered: number; errors: number }[] = [];
  if (groups <= maxTried) for (let g = 0; g < groups; g++) tried.push(at(g));
  else {
    let g = 0;
    for (let j = 1; j <= maxTried; j++) {
      const want = Math.ceil((j * m) / maxTried);
      while (ends[g] < want) g++;
      if (tried.length === 0 || tried[tried.length - 1].answered !== ends[g]) tried.push(at(g));
    }
  }
  const level = delta / Math.max(1, tried.length);
  const candidates = tried.map((t) => ({ ...t, bound: clopperPearsonUpper(t.errors, t.answered, level) }));
  let chosen: GuaranteedChoice = { threshold: null, answered: 0, errors: 0, bound: NaN, delta, tried: tried.length, candidates };
  for (const t of candidates) {
    // The exact check (one cdf evaluation) decides; the bound itself is for showing.
    if (upperBoundAtMost(t.errors, t.answered, level, target)) chosen = { ...chosen, threshold: t.threshold, answered: t.answered, errors: t.errors, bound: t.bound };
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
  choice: GuaranteedChoice;
}

export interface AbstentionOptions {
  /** The largest selective error accepted, in [0, 1]. */
  target: number;
  seed: number;
  /** Per row: the model declined (graded not attempted); only for the counts. */
  declined?: ArrayLike<number | boolean>;
  /** The guarantee's δ (default ABSTENTION_DELTA). */
  delta?: number;
  /** descendingOrder(conf), when the caller has it (many splits of the same rows). */
  order?: Int32Array;
}

/** Steps 1–3 over the first min(conf.length, y.length) rows. */
export function abstention(conf: ArrayLike<number>, y: ArrayLike<number>, options: AbstentionOptions): AbstentionResult {
  const { target, seed, declined } = options;
  const delta = options.delta ?? ABSTENTION_DELTA;
  if (!(target >= 0 && target <= 1)) throw new RangeError(`abstention: the target error must be a number in [0, 1], got ${target}`);
  const n = Math.min(conf.length, y.length);
  const split = recentSplit(n, seed);
  let reason: string | undefined;
  let choice: GuaranteedChoice = { threshold: null, answered: 0, errors: 0, bound: NaN, delta, tried: 0, candidates: [] };
  let bad = -1;
  for (let i = 0; i < n && bad < 0; i++) if (!Number.isFinite(conf[i])) bad = i;
  if (bad >= 0) reason = `question ${bad + 1} has no confidence for this signal`;
  else if (split.selection.length === 0) reason = 'too few questions to hold half of them out (at least 2 are needed)';
  else {
    choice = chooseGuaranteedThreshold(conf, y, split.selection, target, delta, ABSTENTION_MAX_TRIED, options.order);
    if (choice.threshold === null) reason = `no threshold's ${pctText(1 - delta)} upper bound on the selective error of the selection half is at or below the target of ${pctText(target)}`;
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

const pctText = (x: number) => `${+(100 * x).toFixed(2)}%`;

/** One split of the repeated evaluation: its seed, the threshold chosen and the held-out half at it. */
export interface SplitOutcome {
  seed: number;
  threshold: number | null;
  bound: number;
  heldOut: { questions: number; answered: number; errors: number };
}

export interface AbstentionSpread {
  target: number;
  delta: number;
  /** The seeds seed, seed + 1, …, seed + splits − 1. */
  seed: number;
  splits: SplitOutcome[];
  /** Over the splits that answered at least one held-out question: the held-out error's median, min and max (NaN when none did). */
  heldOutError: { median: number; min: number; max: number };
  /** Splits whose held-out error exceeded the target. */
  exceeded: number;
  /** Splits with no threshold (abstain on everything). */
  abstainedOnAll: number;
}

/** Steps 1–3 over `splits` seeded splits (step 4): the held-out error's spread. */
export function abstentionSpread(
  conf: ArrayLike<number>,
  y: ArrayLike<number>,
  options: { target: number; seed: number; delta?: number; splits?: number; order?: Int32Array },
): AbstentionSpread {
  const delta = options.delta ?? ABSTENTION_DELTA;
  const count = options.splits ?? ABSTENTION_SPLITS;
  const splits: SplitOutcome[] = [];
  const n = Math.min(conf.length, y.length);
  let finite = true;
  for (let i = 0; i < n && finite; i++) finite = Number.isFinite(conf[i]);
  // Sorted once for every split (a NaN confidence stops abstention() before it would sort).
  const order = finite ? (options.order ?? descendingOrder(conf, n)) : undefined;
  for (let r = 0; r < count; r++) {
    const res = abstention(conf, y, { target: options.target, seed: options.seed + r, delta, order });
    const e = res.evaluation;
    splits.push({ seed: options.seed + r, threshold: res.threshold, bound: res.choice.bound, heldOut: { questions: e.questions, answered: e.answered, errors: e.errors } });
  }
  const errors = splits.filter((s) => s.heldOut.answered > 0).map((s) => s.heldOut.errors / s.heldOut.answered).sort((a, b) => a - b);
  const mid = errors.length >> 1;
  const median = errors.length === 0 ? NaN : errors.length % 2 ? errors[mid] : (errors[mid - 1] + errors[mid]) / 2;
  return {
    target: options.target,
    delta,
    seed: options.seed,
    splits,
    heldOutError: { median, min: errors.length ? errors[0] : NaN, max: errors.length ? errors[errors.length - 1] : NaN },
    exceeded: errors.filter((e) => e > options.target).length,
    abstainedOnAll: splits.filter((s) => s.threshold === null).length,
  };
}
