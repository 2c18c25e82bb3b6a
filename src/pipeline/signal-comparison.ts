/**
 * Which confidence signal is best calibrated on this data, and by how much.
 *
 * Rows: only questions on which every compared signal is defined, so all ECEs are over the same
 * questions and every difference is paired. A signal present on no question is left out (listed
 * in `excluded`); one present on fewer than `minShare` of the questions is left out too rather than
 * shrinking the comparison to a handful of rows.
 * Best: the lowest paper ECE (10 equal-width bins) on those rows. By how much: ECE(runner-up) −
 * ECE(best). Intervals: for every other signal s, ECE(s) − ECE(best) with a paired bootstrap
 * percentile interval — the core's replicates (one default_rng(seed) stream, integers(0, N, N) row
 * indices, the same rows for every signal), 2.5 and 97.5 percentiles, NaN when too few are finite.
 * A difference whose interval lies above 0 means the best signal is better than s beyond resampling
 * noise; one that straddles 0 means the data cannot tell them apart.
 *
 * The score stage makes the comparison with the metrics and stores it in the report
 * (compareScoredSignals): when every compared signal was scored on every question, the replicates
 * are the very ones of the stage's paired bootstrap, so it costs no second bootstrap.
 */
import { equalWidthBinIndex, equalWidthEdges } from '../core/binning';
import { forEachReplicate, percentileInterval, type BootstrapOptions } from '../core/bootstrap';
import { BinnedEceWorkspace, codeSignal, identityRows } from '../core/ece';
import type { Interval } from '../core/types';
import type { ModelReport, SignalComparison } from '../model/report';
import { isPaperSignal, SIGNAL_NAMES, signalColumns, signalValue, type SignalCarrier, type SignalName } from '../model/signals';
import { SCORING_DEFAULTS } from '../model/run-spec';
import { assertRecomputeBudget } from '../model/scoring-limits';

export type { SignalComparison } from '../model/report';

export interface CompareOptions extends Pick<BootstrapOptions, 'B' | 'seed' | 'bins' | 'minFinite'> {
  /** A signal needs values on at least this share of the questions to be compared (default 0.5). */
  minShare?: number;
}

type Columns = Partial<Record<SignalName, ArrayLike<number>>>;

/** The signals compared and the rows they are compared on. */
function comparisonRows(columns: Columns, y: ArrayLike<number>, minShare: number) {
  const total = y.length;
  const excluded: SignalComparison['excluded'] = [];
  const candidates: [SignalName, ArrayLike<number>][] = [];
  for (const [name, col] of Object.entries(columns) as [SignalName, ArrayLike<number>][]) {
    let present = 0;
    for (let i = 0; i < total; i++) if (Number.isFinite(col[i])) present++;
    if (present === 0) excluded.push({ signal: name, reason: 'no question has this signal' });
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
): SignalComparison {
  const order = names.map((_, k) => k).filter((k) => Number.isFinite(point[k])).sort((a, b) => point[a] - point[b]);
  const bestK = order.length ? order[0] : -1;
  const ece: SignalComparison['ece'] = {};
  names.forEach((name, k) => (ece[name] = percentileInterval(point[k], reps[k], context.minFinite)));
  const intervals: SignalComparison['intervals'] = {};
  const clearlyBetterThan: SignalName[] = [];
  if (bestK >= 0) {
    names.forEach((name, k) => {
      if (k === bestK) return;
      const diff = Float64Array.from(reps[k], (v, b) => v - reps[bestK][b]);
      const iv = percentileInterval(point[k] - point[bestK], diff, context.minFinite);
      intervals[name] = iv;
      if (iv[1] > 0) clearlyBetterThan.push(name);
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
  };
}

export function compareSignals(columns: Columns, y: ArrayLike<number>, options: CompareOptions = {}): SignalComparison {
  const B = options.B ?? 1000;
  const seed = options.seed ?? 7;
  const bins = options.bins ?? 10;
  const { candidates, excluded, keep } = comparisonRows(columns, y, options.minShare ?? 0.5);
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
  return verdict(candidates.map(([name]) => name), point, reps, { rows: N, excluded, B, seed, minFinite: options.minFinite });
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
 * The columns the score stage compares: the signals it scored and every other signal some
 * question carries (a logprob present on only some questions is compared on those, or listed
 * as left out).
 */
export function comparedColumns(questions: readonly SignalCarrier[], scored: readonly SignalName[]): Partial<Record<SignalName, Float64Array>> {
  const out: Partial<Record<SignalName, Float64Array>> = {};
  for (const name of SIGNAL_NAMES) {
    const carried = scored.includes(name) || (!isPaperSignal(name) && questions.some((q) => Number.isFinite(q.signals?.[name])));
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
  const { candidates, excluded, keep } = comparisonRows(columns, y, options.minShare ?? 0.5);
  const names = candidates.map(([name]) => name);
  const reusable = keep.length === y.length && names.every((n) => scored.intervals[n] && scored.replicates[n]);
  if (!reusable) return compareSignals(columns, y, options);
  return verdict(
    names,
    names.map((n) => scored.intervals[n]![0]),
    names.map((n) => scored.replicates[n]!),
    { rows: keep.length, excluded, B, seed, minFinite: options.minFinite },
  );
}
