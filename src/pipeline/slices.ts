/**
 * Calibration by subgroup (docs/STATISTICS.md, "Calibration by subgroup"): the report's questions
 * sliced by a column kept with them (category, relation, popularity, subject …), and per slice
 * the accuracy, each signal's paper ECE with the report's one interval and calibration test
 * (core/ece-inference.ts, the same bins and seed as the whole report), those tests' p-values
 * Holm-adjusted over the slices, and whether calibration differs across slices
 * (core/slice-heterogeneity.ts). Pure: the app and `semece score --by` both call it.
 *
 * A slice under MIN_SLICE_QUESTIONS questions is marked `small`: with the paper's 10 bins it has
 * about three questions a bin, under the per-bin rule (small-bins.ts, 10 a bin) nearly everywhere,
 * so its ECE reads high from noise alone. It stays in the table and the test, marked.
 */
import { accuracy, eceEqualWidth } from '../core/calibration';
import { eceInference } from '../core/ece-inference';
import { holmAdjust } from '../core/holm';
import { sliceHeterogeneity, SLICE_HETEROGENEITY_METHOD } from '../core/slice-heterogeneity';
import type { ReportQuestion, SignalName } from '../model/report';
import { signalValue } from '../model/signals';

export const MIN_SLICE_QUESTIONS = 30;
/** A numeric column with more distinct values than this is binned (a log10 scale when non-negative). */
export const MAX_PLAIN_VALUES = 12;
/** More slices than this cannot be read as a table or small multiples: the column is refused. */
export const MAX_SLICES = 60;

/** How a numeric column's values become slices. */
export type SliceBinning = 'log10' | 'quantile';

export interface SliceEntry {
  value: string;
  questions: number;
  accuracy: number;
  ece: Partial<Record<SignalName, number>>;
  eceInterval: Partial<Record<SignalName, [number, number]>>;
  /** The slice's test of perfect calibration, and its p-value Holm-adjusted over the slices (per signal). */
  calibrationP: Partial<Record<SignalName, number>>;
  calibrationPHolm: Partial<Record<SignalName, number>>;
  /** Under MIN_SLICE_QUESTIONS questions. */
  small: boolean;
  /** Row indices of the slice's questions, in report order (for charts; not exported). */
  rows: number[];
}

export interface SliceAnalysis {
  column: string;
  binning: SliceBinning | null;
  slices: SliceEntry[];
  /** Questions without a value in the column (left out of every slice). */
  missing: number;
  /** Does calibration differ across slices: per signal, the permutation test's statistic and p. */
  heterogeneity: Partial<Record<SignalName, { statistic: number; p: number }>>;
  heterogeneityMethod: string;
  draws: number;
}

export type FieldValue = string | number;

/** The column's value on a question: its kept fields (`category` included), or undefined. */
export function fieldOf(q: Pick<ReportQuestion, 'fields'>, column: string): FieldValue | undefined {
  const v = q.fields?.[column];
  return typeof v === 'string' ? (v.trim() === '' ? undefined : v) : typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Columns some question keeps, in first-seen order, with how many questions have each. */
export function sliceColumns(questions: readonly Pick<ReportQuestion, 'fields'>[]): { column: string; questions: number }[] {
  const counts = new Map<string, number>();
  for (const q of questions) for (const k of Object.keys(q.fields ?? {})) if (fieldOf(q, k) !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].map(([column, n]) => ({ column, questions: n }));
}

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(3))));

/** "10^2–10^3" style labels of a non-negative value's decade ("0" for zero). */
function log10Label(x: number): string {
  if (x <= 0) return '0';
  const d = Math.floor(Math.log10(x));
  return `${fmt(10 ** d)}–${fmt(10 ** (d + 1))}`;
}

/** Slice labels per question (undefined: no value), and the binning used. */
export function sliceLabels(
  questions: readonly Pick<ReportQuestion, 'fields'>[],
  column: string,
  binning?: SliceBinning,
): { labels: (string | undefined)[]; binning: SliceBinning | null; order: string[] } {
  const values = questions.map((q) => fieldOf(q, column));
  const numeric = values.every((v) => v === undefined || typeof v === 'number');
  const distinct = new Set(values.filter((v) => v !== undefined));
  let use: SliceBinning | null = null;
  if (numeric && (binning || distinct.size > MAX_PLAIN_VALUES)) {
    use = binning ?? ((values as (number | undefined)[]).every((v) => v === undefined || v >= 0) ? 'log10' : 'quantile');
  }
  if (use === 'log10') {
    const labels = values.map((v) => (v === undefined ? undefined : log10Label(v as number)));
    const lows = new Map<string, number>();
    values.forEach((v, i) => v !== undefined && lows.set(labels[i]!, Math.min(lows.get(labels[i]!) ?? Infinity, v as number)));
    return { labels, binning: use, order: [...lows].sort((a, b) => a[1] - b[1]).map(([l]) => l) };
  }
  if (use === 'quantile') {
    const sorted = (values.filter((v) => v !== undefined) as number[]).sort((a, b) => a - b);
    const cuts = [1, 2, 3, 4].map((k) => sorted[Math.floor((k * sorted.length) / 5)]);
    const edges = [sorted[0], ...cuts, sorted[sorted.length - 1]];
    const labelOf = (x: number) => {
      let k = 0;
      while (k < 4 && x >= cuts[k]) k++;
      return `${fmt(edges[k])}–${fmt(edges[k + 1])}`;
    };
    const labels = values.map((v) => (v === undefined ? undefined : labelOf(v as number)));
    const order = [...new Set([0, 1, 2, 3, 4].map((k) => `${fmt(edges[k])}–${fmt(edges[k + 1])}`))].filter((l) => labels.includes(l));
    return { labels, binning: use, order };
  }
  const labels = values.map((v) => (v === undefined ? undefined : String(v)));
  const seen = [...new Set(labels.filter((l): l is string => l !== undefined))];
  if (numeric) seen.sort((a, b) => Number(a) - Number(b));
  return { labels, binning: null, order: seen };
}

export interface SliceOptions {
  bins: number;
  seed: number;
  binning?: SliceBinning;
  /** Shuffles of the heterogeneity test (default 999). */
  draws?: number;
}

/** The report's questions sliced by `column`; an Error names the column when it cannot slice. */
export function sliceReport(
  questions: readonly ReportQuestion[],
  column: string,
  signals: readonly SignalName[],
  options: SliceOptions,
): SliceAnalysis {
  const { labels, binning, order } = sliceLabels(questions, column, options.binning);
  if (order.length === 0) throw new Error(`no question has a value in the column "${column}"`);
  if (order.length > MAX_SLICES) throw new Error(`the column "${column}" has ${order.length} values, more than ${MAX_SLICES} slices can show`);
  const index = new Map(order.map((v, i) => [v, i]));
  const rowsOf: number[][] = order.map(() => []);
  labels.forEach((l, i) => l !== undefined && rowsOf[index.get(l)!].push(i));
  const y = Float64Array.from(questions, (q) => q.correct);
  const conf = Object.fromEntries(signals.map((s) => [s, Float64Array.from(questions, (q) => signalValue(q, s))])) as Record<SignalName, Float64Array>;
  const slices: SliceEntry[] = order.map((value, k) => {
    const rows = rowsOf[k];
    const yy = rows.map((i) => y[i]);
    const e: SliceEntry = { value, questions: rows.length, accuracy: accuracy(yy), ece: {}, eceInterval: {}, calibrationP: {}, calibrationPHolm: {}, small: rows.length < MIN_SLICE_QUESTIONS, rows };
    for (const s of signals) {
      const c = rows.map((i) => conf[s][i]);
      const r = eceInference(c, yy, { bins: options.bins, seed: options.seed });
      e.ece[s] = eceEqualWidth(c, yy, options.bins);
      e.eceInterval[s] = [r.interval[0], r.interval[1]];
      e.calibrationP[s] = r.p;
    }
    return e;
  });
  for (const s of signals) {
    const adjusted = holmAdjust(slices.map((e) => e.calibrationP[s]!));
    slices.forEach((e, k) => (e.calibrationPHolm[s] = adjusted[k]));
  }
  // The test runs on the sliced rows only (those with a value).
  const kept = labels.flatMap((l, i) => (l === undefined ? [] : [i]));
  const sliceIdx = Int32Array.from(kept, (i) => index.get(labels[i]!)!);
  const yk = Float64Array.from(kept, (i) => y[i]);
  const draws = options.draws ?? 999;
  const heterogeneity: SliceAnalysis['heterogeneity'] = {};
  for (const s of signals) {
    const t = sliceHeterogeneity(Float64Array.from(kept, (i) => conf[s][i]), yk, sliceIdx, { bins: options.bins, seed: options.seed, draws });
    heterogeneity[s] = { statistic: t.statistic, p: t.p };
  }
  return { column, binning, slices, missing: questions.length - kept.length, heterogeneity, heterogeneityMethod: SLICE_HETEROGENEITY_METHOD, draws };
}

/** `semece score --by`'s `slices`: {value: {questions, accuracy, ece, ece_interval, …}} (README.md). */
export function slicesCliDocument(a: SliceAnalysis) {
  return Object.fromEntries(
    a.slices.map((e) => [
      e.value,
      { questions: e.questions, accuracy: e.accuracy, ece: e.ece, ece_interval: e.eceInterval, calibration_p: e.calibrationP, calibration_p_holm: e.calibrationPHolm, small: e.small },
    ]),
  );
}

/** `semece score --by`'s `slice_test`: the column, how it was binned, and whether calibration differs across slices. */
export function sliceTestCliDocument(a: SliceAnalysis) {
  return {
    column: a.column,
    binning: a.binning,
    missing: a.missing,
    min_questions: MIN_SLICE_QUESTIONS,
    method: a.heterogeneityMethod,
    draws: a.draws,
    statistic: Object.fromEntries(Object.entries(a.heterogeneity).map(([s, t]) => [s, t!.statistic])),
    p: Object.fromEntries(Object.entries(a.heterogeneity).map(([s, t]) => [s, t!.p])),
  };
}
