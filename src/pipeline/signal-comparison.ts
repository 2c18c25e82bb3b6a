/**
 * Which confidence signal is best calibrated on this data, and by how much.
 *
 * Rows: only questions on which every compared signal is defined, so all ECEs are over the same
 * questions and every difference is paired. A signal present on no question is left out (listed
 * in `excluded`); one present on fewer than `minShare` of the questions is left out too rather than
 * shrinking the comparison to a handful of rows. A signal that is not a probability (a confidence
 * form of an uncertainty score, model/signals.ts) is left out too: its raw ECE claims nothing; it is
 * compared by its ranking metrics and its ECE after recalibration.
 * Candidate: the lowest paper ECE (10 equal-width bins) on those rows. By how much: ECE(runner-up)
 * − ECE(best), with a paired bootstrap percentile interval for scale — the core's replicates (one
 * default_rng(seed) stream, integers(0, N, N) row indices, the same rows for every signal).
 *
 * Named best only when it beats every other signal (`selection`): for each other signal s a
 * one-sided test of H0: ECE(s) ≤ ECE(best) (core/ece-difference-test.ts: confidences held fixed,
 * outcomes simulated under null hypotheses, as the headline interval is made), and the best is
 * named when all k − 1 tests reject at SELECTION_PER_COMPARISON = 2.5%. That is an
 * intersection–union test (Berger 1982): the claim "better than every other" is the intersection
 * of the k − 1 claims, so no multiplicity correction is needed across them. The candidate is picked
 * from the data, though, and when two signals tie either could be picked, so each test is at
 * α/2 and the chance of naming one of two tied signals is at most 2 × 2.5% = 5% (SELECTION_ALPHA).
 * The paired bootstrap of the plug-in difference is not used to decide: the plug-in ECE's bias
 * differs between signals that fall into bins differently and does not cancel in the difference
 * (docs/STATISTICS.md has the measurements).
 *
 * The score stage makes the comparison with the metrics and stores it in the report
 * (compareScoredSignals): when every compared signal was scored on every question, the replicates
 * are the very ones of the stage's paired bootstrap, so it costs no second bootstrap.
 *
 * The same rule compares the signals after recalibration (compareRecalibratedSignals): every
 * scored signal's cross-fitted isotonic confidences (recalibration-metrics.ts), which are
 * probabilities whatever the signal was, so none is left out for not being one. Its ECEs, like the
 * recalibrated ECE's interval, hold the fitted maps as given.
 */
import { equalWidthBinIndex, equalWidthEdges } from '../core/binning';
import { forEachReplicate, pairedBootstrap, percentileInterval, type BootstrapOptions } from '../core/bootstrap';
import { BinnedEceWorkspace, codeSignal, identityRows } from '../core/ece';
import { ECE_DIFFERENCE_METHOD, eceDifferenceTest } from '../core/ece-difference-test';
import type { Interval } from '../core/types';
import type { ModelReport, SignalComparison, SignalSelection } from '../model/report';
import { isPaperSignal, isProbabilitySignal, SIGNAL_NAMES, signalColumns, signalValue, type SignalCarrier, type SignalName } from '../model/signals';
import { SCORING_DEFAULTS } from '../model/run-spec';
import { assertRecomputeBudget } from '../model/scoring-limits';

export type { SignalComparison } from '../model/report';

export interface CompareOptions extends Pick<BootstrapOptions, 'B' | 'seed' | 'bins' | 'minFinite'> {
  /** A signal needs values on at least this share of the questions to be compared (default 0.5). */
  minShare?: number;
  /** Simulated data sets per null hypothesis of each selection test (default SELECTION_DRAWS). */
  draws?: number;
  /**
   * Leave out signals that are not probabilities (default true). False for columns that are
   * probabilities whatever the signal was: its confidences after a recalibration map.
   */
  probabilitiesOnly?: boolean;
}

/** Chance of naming a best signal when none is better (two tied: 2 × the per-comparison level). */
export const SELECTION_ALPHA = 0.05;
/** Level of each one-sided comparison with the candidate best. */
export const SELECTION_PER_COMPARISON = SELECTION_ALPHA / 2;
export const SELECTION_DRAWS = 1000;

type Columns = Partial<Record<SignalName, ArrayLike<number>>>;

export const NOT_A_PROBABILITY = 'not a probability: compared by its ranking metrics and its ECE after recalibration';

const NO_QUESTION = 'no question has this signal';

/** The signals compared and the rows they are compared on. */
function comparisonRows(columns: Columns, y: ArrayLike<number>, minShare: number, probabilitiesOnly = true) {
  const total = y.length;
  const excluded: SignalComparison['excluded'] = [];
  const candidates: [SignalName, ArrayLike<number>][] = [];
  for (const [name, col] of Object.entries(columns) as [SignalName, ArrayLike<number>][]) {
    if (probabilitiesOnly && !isProbabilitySignal(name)) {
      excluded.push({ signal: name, reason: NOT_A_PROBABILITY });
      continue;
    }
    let present = 0;
    for (let i = 0; i < total; i++) if (Number.isFinite(col[i])) present++;
    if (present === 0) excluded.push({ signal: name, reason: NO_QUESTION });
    else if (present < minShare * total) excluded.push({ signal: name, reason: `only ${present} of ${total} questions have this signal` });
    else candidates.push([name, col]);
  }
  const keep: number[] = [];
  for (let i = 0; i < total; i++) if (candidates.every(([, col]) => Number.isFinite(col[i])) && (y[i] === 0 || y[i] === 1)) keep.push(i);
  return { candidates, excluded, keep };
}

/** Best, runner-up and the paired differences from each signal's point ECE and its replicates. */
function verdict(
  names: SignalName[],
  point: number[],
  reps: ArrayLike<number>[],
  context: { rows: number; excluded: SignalComparison['excluded']; B: number; seed: number; minFinite?: number },
  select: (best: number) => SignalSelection,
): SignalComparison {
  const order = names.map((_, k) => k).filter((k) => Number.isFinite(point[k])).sort((a, b) => point[a] - point[b]);
  const bestK = order.length ? order[0] : -1;
  const ece: SignalComparison['ece'] = {};
  names.forEach((name, k) => (ece[name] = percentileInterval(point[k], reps[k], context.minFinite)));
  const intervals: SignalComparison['intervals'] = {};
  const clearlyBetterThan: SignalName[] = [];
  const selection = bestK >= 0 ? select(bestK) : undefined;
  if (bestK >= 0) {
    names.forEach((name, k) => {
      if (k === bestK) return;
      const diff = Float64Array.from(reps[k], (v, b) => v - reps[bestK][b]);
      intervals[name] = percentileInterval(point[k] - point[bestK], diff, context.minFinite);
      if ((selection!.tests[name]?.p ?? 1) < selection!.perComparison) clearlyBetterThan.push(name);
    });
  }
  const runnerUpK = order.length > 1 ? order[1] : -1;
  return {
    rows: context.rows,
    compared: names,
    excluded: context.excluded,
    ece,
    best: bestK >= 0 ? names[bestK] : null,
    runnerUp: runnerUpK >= 0 ? names[runnerUpK] : null,
    byHowMuch: runnerUpK >= 0 ? intervals[names[runnerUpK]]! : null,
    intervals,
    clearlyBetterThan,
    B: context.B,
    seed: context.seed,
    ...(selection ? { selection } : {}),
  };
}

/**
 * The selection tests of the candidate `best` against every other compared signal, on the
 * compared rows. Each test has its own seed (the comparison's seed + the signal's position), so
 * adding a signal leaves the others' p-values as they were.
 */
function selectionTests(
  candidates: [SignalName, ArrayLike<number>][],
  keep: number[],
  y: ArrayLike<number>,
  options: CompareOptions,
): (best: number) => SignalSelection {
  return (best) => {
    const draws = options.draws ?? SELECTION_DRAWS;
    const yy = Float64Array.from(keep, (i) => y[i]);
    const column = (k: number) => Float64Array.from(keep, (i) => candidates[k][1][i]);
    const bestCol = column(best);
    const tests: SignalSelection['tests'] = {};
    candidates.forEach(([name], k) => {
      if (k === best) return;
      tests[name] = eceDifferenceTest(bestCol, column(k), yy, { bins: options.bins ?? 10, draws, seed: (options.seed ?? 7) + k });
    });
    const ps = Object.values(tests).map((t) => t!.p);
    return {
      method: ECE_DIFFERENCE_METHOD,
      alpha: SELECTION_ALPHA,
      perComparison: SELECTION_PER_COMPARISON,
      comparisons: candidates.length - 1,
      draws,
      tests,
      named: ps.every((p) => p < SELECTION_PER_COMPARISON),
    };
  };
}

export function compareSignals(columns: Columns, y: ArrayLike<number>, options: CompareOptions = {}): SignalComparison {
  const B = options.B ?? 1000;
  const seed = options.seed ?? 7;
  const bins = options.bins ?? 10;
  const { candidates, excluded, keep } = comparisonRows(columns, y, options.minShare ?? 0.5, options.probabilitiesOnly);
  const N = keep.length;
  const yy = Float64Array.from(keep, (i) => y[i]);
  const edges = equalWidthEdges(bins);
  const ws = new BinnedEceWorkspace(N, edges.length - 1);
  const coded = candidates.map(([, col]) => {
    const conf = Float64Array.from(keep, (i) => col[i]);
    return codeSignal(conf, yy, equalWidthBinIndex(conf, edges, N), edges.length - 1, N);
  });
  const all = identityRows(N);
  const point = coded.map((s) => ws.ece(s, all, N));
  const reps = coded.map(() => new Float64Array(N > 0 ? B : 0));
  forEachReplicate(N, { B, seed }, (rows, b) => {
    coded.forEach((s, k) => (reps[k][b] = ws.ece(s, rows, N)));
  });
  return verdict(candidates.map(([name]) => name), point, reps, { rows: N, excluded, B, seed, minFinite: options.minFinite }, selectionTests(candidates, keep, y, options));
}

/** The comparison over one model's report questions (every signal column the report holds). */
export function compareReportSignals(model: Pick<ModelReport, 'questions'>, options: CompareOptions = {}): SignalComparison {
  return compareDocumentColumns(signalColumns(model.questions), model.questions.map((q) => q.correct), options);
}

/**
 * compareSignals over columns taken from a document (a report saved before the comparison was
 * stored, perhaps from a link; the report page's worker gets them packed): its size is checked
 * before the bootstrap starts.
 */
export function compareDocumentColumns(columns: Columns, y: ArrayLike<number>, options: CompareOptions = {}): SignalComparison {
  assertRecomputeBudget(
    {
      rows: y.length,
      B: options.B ?? SCORING_DEFAULTS.bootstrap.B,
      signals: Object.keys(columns).length,
      bins: options.bins ?? SCORING_DEFAULTS.bins,
    },
    'This report is too large to compare its signals here',
  );
  return compareSignals(columns, y, options);
}

/**
 * The columns the score stage compares: the signals it scored, every other signal some
 * question carries (a logprob present on only some questions is compared on those, or listed
 * as left out), and each signal the run `offered` (a multiple-choice run's stated probability and
 * logprob), listed as left out when no question has it.
 */
export function comparedColumns(
  questions: readonly SignalCarrier[],
  scored: readonly SignalName[],
  offered: readonly SignalName[] = [],
): Partial<Record<SignalName, Float64Array>> {
  const out: Partial<Record<SignalName, Float64Array>> = {};
  for (const name of SIGNAL_NAMES) {
    const carried = scored.includes(name) || offered.includes(name) || (!isPaperSignal(name) && questions.some((q) => Number.isFinite(q.signals?.[name])));
    if (carried) out[name] = Float64Array.from(questions, (q) => signalValue(q, name));
  }
  return out;
}

/** The score stage's own bootstrap of each scored signal's ECE: its intervals and every replicate. */
export interface ScoredReplicates {
  intervals: Partial<Record<SignalName, Interval>>;
  replicates: Partial<Record<SignalName, Float64Array>>;
}

/**
 * compareSignals, reusing the score stage's replicates when the comparison's rows are all the
 * scored rows and each compared signal was scored (then its ECE point and replicates are the
 * same numbers compareSignals would compute, from the same stream); otherwise its own bootstrap.
 */
export function compareScoredSignals(columns: Columns, y: ArrayLike<number>, options: CompareOptions, scored: ScoredReplicates): SignalComparison {
  const B = options.B ?? 1000;
  const seed = options.seed ?? 7;
  const { candidates, excluded, keep } = comparisonRows(columns, y, options.minShare ?? 0.5, options.probabilitiesOnly);
  const names = candidates.map(([name]) => name);
  const reusable = keep.length === y.length && names.every((n) => scored.intervals[n] && scored.replicates[n]);
  if (!reusable) return compareSignals(columns, y, options);
  return verdict(
    names,
    names.map((n) => scored.intervals[n]![0]),
    names.map((n) => scored.replicates[n]!),
    { rows: keep.length, excluded, B, seed, minFinite: options.minFinite },
    selectionTests(candidates, keep, y, options),
  );
}

export const NOT_RECALIBRATED = 'no recalibrated confidence: the map is fitted only where the signal is on every question';

/**
 * The comparison after recalibration: `recalibrated` holds each scored signal's cross-fitted
 * isotonic confidences (recalibration-metrics.ts recalibrationWithColumns), compared by the same
 * rule, seeds and settings as the raw signals, non-probability signals included.
 *
 * Its bootstrap: the columns with a confidence on every question (a cross-fitted column is all
 * finite or all NaN) are resampled by the paired bootstrap's fused kernel, every column in one pass
 * over each replicate's drawn rows: the same stream and the same numbers as compareSignals's own
 * loop (compareScoredSignals's reuse), about 3× faster at 40,000 questions and ten signals. The
 * kernel's Sem1/Sem2 slots get the first column (its work is reused for that column) and no row is
 * low-margin, so nothing else is computed.
 */
export function compareRecalibratedSignals(recalibrated: Columns, y: ArrayLike<number>, options: Omit<CompareOptions, 'probabilitiesOnly'> = {}): SignalComparison {
  const opts: CompareOptions = { ...options, probabilitiesOnly: false };
  const N = y.length;
  const whole = (Object.entries(recalibrated) as [SignalName, ArrayLike<number>][]).filter(([, c]) => c.length === N && allFinite(c, N));
  let cmp: SignalComparison;
  if (whole.length > 0 && allBinary(y)) {
    const first = whole[0][1];
    const boot = pairedBootstrap(
      { sem1: first, sem2: first, y, margin: new Float64Array(N).fill(Infinity) },
      { B: options.B ?? 1000, seed: options.seed ?? 7, bins: options.bins ?? 10, minFinite: options.minFinite },
      Object.fromEntries(whole),
    );
    cmp = compareScoredSignals(recalibrated, y, opts, { intervals: boot.eceIntervals, replicates: boot.eceReplicates });
  } else cmp = compareSignals(recalibrated, y, opts);
  // A signal missing on some question gets no recalibrated confidence at all (core/recalibration.ts): say so.
  return { ...cmp, excluded: cmp.excluded.map((x) => (x.reason === NO_QUESTION ? { ...x, reason: NOT_RECALIBRATED } : x)) };
}

function allFinite(c: ArrayLike<number>, n: number): boolean {
  for (let i = 0; i < n; i++) if (!Number.isFinite(c[i])) return false;
  return true;
}

function allBinary(y: ArrayLike<number>): boolean {
  for (let i = 0; i < y.length; i++) if (y[i] !== 0 && y[i] !== 1) return false;
  return true;
}
