/**
 * Which confidence signal is best calibrated on this data, and by how much.
 *
 * Rows: only questions on which every compared signal is defined, so all ECEs are over the same
 * questions and every difference is paired. A signal present on no question is left out (listed
 * in `excluded`); one present on fewer than `minRows` of the questions is left out too rather than
 * shrinking the comparison to a handful of rows.
 * Best: the lowest paper ECE (10 equal-width bins) on those rows. By how much: ECE(runner-up) −
 * ECE(best). Intervals: for every other signal s, ECE(s) − ECE(best) with a paired bootstrap
 * percentile interval — the core's replicates (one default_rng(seed) stream, integers(0, N, N) row
 * indices, the same rows for every signal), 2.5 and 97.5 percentiles, NaN when too few are finite.
 * A difference whose interval lies above 0 means the best signal is better than s beyond resampling
 * noise; one that straddles 0 means the data cannot tell them apart.
 */
import { equalWidthBinIndex, equalWidthEdges } from '../core/binning';
import { forEachReplicate, percentileInterval, type BootstrapOptions } from '../core/bootstrap';
import { BinnedEceWorkspace, codeSignal, identityRows } from '../core/ece';
import type { Interval } from '../core/types';
import type { ModelReport, SignalName } from '../model/report';
import { signalColumns } from '../model/signals';

export interface SignalComparison {
  /** Questions compared (all compared signals defined). */
  rows: number;
  compared: SignalName[];
  excluded: { signal: SignalName; reason: string }[];
  /** Paper ECE of each compared signal on the compared rows, with its bootstrap interval. */
  ece: Partial<Record<SignalName, Interval>>;
  best: SignalName | null;
  runnerUp: SignalName | null;
  /** ECE(runner-up) − ECE(best) with its paired interval; null with fewer than two signals. */
  byHowMuch: Interval | null;
  /** ECE(s) − ECE(best) for every other compared signal s. */
  intervals: Partial<Record<SignalName, Interval>>;
  /** Signals the best one beats beyond resampling noise (difference interval above 0). */
  clearlyBetterThan: SignalName[];
  B: number;
  seed: number;
}

export interface CompareOptions extends Pick<BootstrapOptions, 'B' | 'seed' | 'bins' | 'minFinite'> {
  /** A signal needs values on at least this share of the questions to be compared (default 0.5). */
  minShare?: number;
}

export function compareSignals(columns: Partial<Record<SignalName, ArrayLike<number>>>, y: ArrayLike<number>, options: CompareOptions = {}): SignalComparison {
  const B = options.B ?? 1000;
  const seed = options.seed ?? 7;
  const bins = options.bins ?? 10;
  const minShare = options.minShare ?? 0.5;
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
  const N = keep.length;
  const yy = Float64Array.from(keep, (i) => y[i]);
  const edges = equalWidthEdges(bins);
  const ws = new BinnedEceWorkspace(N, edges.length - 1);
  const coded = candidates.map(([name, col]) => {
    const conf = Float64Array.from(keep, (i) => col[i]);
    return { name, coded: codeSignal(conf, yy, equalWidthBinIndex(conf, edges, N), edges.length - 1, N) };
  });
  const all = identityRows(N);
  const point = coded.map((s) => ws.ece(s.coded, all, N));
  const order = coded.map((_, k) => k).filter((k) => Number.isFinite(point[k])).sort((a, b) => point[a] - point[b]);
  const bestK = order.length ? order[0] : -1;

  const reps = coded.map(() => new Float64Array(N > 0 ? B : 0));
  forEachReplicate(N, { B, seed }, (rows, b) => {
    coded.forEach((s, k) => (reps[k][b] = ws.ece(s.coded, rows, N)));
  });
  const ece: SignalComparison['ece'] = {};
  coded.forEach((s, k) => (ece[s.name] = percentileInterval(point[k], reps[k], options.minFinite)));
  const intervals: SignalComparison['intervals'] = {};
  const clearlyBetterThan: SignalName[] = [];
  if (bestK >= 0) {
    coded.forEach((s, k) => {
      if (k === bestK) return;
      const diff = reps[k].map((v, b) => v - reps[bestK][b]);
      const iv = percentileInterval(point[k] - point[bestK], diff, options.minFinite);
      intervals[s.name] = iv;
      if (iv[1] > 0) clearlyBetterThan.push(s.name);
    });
  }
  const runnerUpK = order.length > 1 ? order[1] : -1;
  return {
    rows: N,
    compared: coded.map((s) => s.name),
    excluded,
    ece,
    best: bestK >= 0 ? coded[bestK].name : null,
    runnerUp: runnerUpK >= 0 ? coded[runnerUpK].name : null,
    byHowMuch: runnerUpK >= 0 ? intervals[coded[runnerUpK].name]! : null,
    intervals,
    clearlyBetterThan,
    B,
    seed,
  };
}

/** The comparison over one model's report questions (every signal column the report holds). */
export function compareReportSignals(model: Pick<ModelReport, 'questions'>, options: CompareOptions = {}): SignalComparison {
  return compareSignals(signalColumns(model.questions), model.questions.map((q) => q.correct), options);
}
