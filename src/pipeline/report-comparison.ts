/**
 * Paired differences between reports (issue 28): for every pair of entries (a report's model),
 * on the questions both answered, the difference B − A of accuracy and of every metric of the
 * metrics table for every signal both entries have, with a paired bootstrap interval and a
 * two-sided p-value (core/paired-difference.ts), and the p-values adjusted by Holm's method
 * (core/holm.ts) within each metric's family: all pairs × signals of that metric (accuracy: all
 * pairs). The paper's ECE is the exception: its difference's interval and p come from each
 * model's headline interval (core/ece-difference-inference.ts, Bonferroni-joined test inversion),
 * because the bootstrap's interval under-covers where one model is near-calibrated.
 * docs/STATISTICS.md, "Comparing reports", states the methods and their measured coverage.
 *
 * The shape is `semece compare`'s JSON (README.md, "Command line"): snake_case keys, metric keys
 * as `semece score` prints them (model/metrics.ts `cli`).
 */
import { brierScore } from '../core/brier';
import { eceEqualWidth, mce } from '../core/ece';
import { ECE_DIFFERENCE_METHOD, eceDifference, eceLevelIntervals, type EceLevelIntervals } from '../core/ece-difference-inference';
import { eceEqualMass } from '../core/equal-mass';
import { holmAdjust, holmFamilySize } from '../core/holm';
import { pairedDifferences, type DifferenceSpec, type RowStatistic } from '../core/paired-difference';
import { pairwiseMean } from '../core/pairwise';
import { auroc } from '../core/ranking';
import { aurc } from '../core/risk-coverage';
import { smoothEce } from '../core/smooth-ece';
import { METRICS, type MetricCliKey, type MetricKey } from '../model/metrics';
import type { ReportQuestion } from '../model/report';
import { SCORING_DEFAULTS } from '../model/run-spec';
import { isProbabilitySignal, SIGNAL_ORDER, signalValue, type SignalName } from '../model/signals';
import { alignQuestions, clustererWarning, settingsDiffer, type CompareEntry, type QuestionRef, type SettingDifference } from './report-alignment';

export const COMPARISON_METHOD = 'paired-bootstrap-basic';
export const COMPARISON_CORRECTION = 'holm';
/** The method of the `ece` metric's intervals and p-values (every other metric: COMPARISON_METHOD). */
export const ECE_COMPARISON_METHOD = ECE_DIFFERENCE_METHOD;

export interface DifferenceEntry {
  /** Value of B minus value of A on the shared questions. */
  difference: number;
  /** 95% basic bootstrap interval of the difference ([NaN, NaN] when it cannot be made). */
  interval: [number, number];
  /** Two-sided p-value of "no difference", before the correction. */
  p: number;
  /** Holm-adjusted within the metric's family (NaN when untested). */
  p_adjusted: number;
}

/** Per metric key: per signal. Accuracy has no signal: one entry. */
export type PairMetrics = { accuracy: DifferenceEntry } & Partial<Record<MetricCliKey, Partial<Record<SignalName, DifferenceEntry>>>>;

export interface PairComparison {
  a: string;
  b: string;
  /** Questions both entries answered (compared). */
  shared: number;
  only_a: QuestionRef[];
  only_b: QuestionRef[];
  /** Repeated questions within each report, left out (first wins). */
  duplicates: { a: number; b: number };
  settings_differ: SettingDifference[];
  /** Lines a person must read before any number (different clusterers). */
  warnings: string[];
  /** Signals compared: finite for both entries on every shared question, in the signals table's order. */
  signals: SignalName[];
  /** Signals one or both entries lack on some shared question, not compared. */
  signals_skipped: SignalName[];
  metrics: PairMetrics;
}

export interface ReportComparison {
  pairs: PairComparison[];
  /** Method of every metric's interval but the paper's ECE. */
  method: typeof COMPARISON_METHOD;
  /**
   * Method of the paper's ECE (`ece`): each model's headline interval, joined by Bonferroni.
   * Absent from comparisons shared before it existed, whose ECE differences are bootstrap ones.
   */
  ece_method?: typeof ECE_COMPARISON_METHOD;
  correction: typeof COMPARISON_CORRECTION;
  /** What each family of the correction is. */
  family: string;
  /** Tests in each metric's family (accuracy and every metric key). */
  family_size: Record<string, number>;
  B: number;
  seed: number;
  level: number;
}

export interface CompareReportsOptions {
  /** Replicates (default: the largest B of the reports compared, else 1000). */
  B?: number;
  /** Seed of the bootstrap stream (default 7, the paper's). */
  seed?: number;
  /** Bins of the binned metrics (default: the reports' when they agree, else 10). */
  bins?: number;
  /** Metrics compared per signal (default DEFAULT_COMPARED_METRICS). */
  metrics?: readonly MetricKey[];
}

/**
 * Every metric of the metrics table but smooth ECE, whose self-consistent bandwidth search costs
 * about 25 ms a call at 500 questions: B × 2 calls per signal and pair would take minutes. It is
 * compared when asked for (`--metrics smooth_ece`).
 */
export const DEFAULT_COMPARED_METRICS: readonly MetricKey[] = METRICS.filter((m) => m.key !== 'smoothEce').map((m) => m.key);

/** Each metric of the table as a statistic of (confidences, correctness): a Record, so a new metric must be added here. */
export function metricStatistic(key: MetricKey, bins: number): RowStatistic {
  const table: Record<MetricKey, RowStatistic> = {
    ece: (c, y) => eceEqualWidth(c, y, bins),
    eceEqualMass: (c, y) => eceEqualMass(c, y, bins),
    mce: (c, y) => mce(c, y, bins),
    smoothEce: (c, y) => smoothEce(c, y),
    brier: (c, y) => brierScore(c, y),
    auroc: (c, y) => auroc(c, y),
    aurc: (c, y) => aurc(c, y),
    meanConfidence: (c) => pairwiseMean(c),
  };
  return table[key];
}

const accuracyStatistic: RowStatistic = (_c, y) => pairwiseMean(y);

function column(questions: readonly ReportQuestion[], rows: readonly number[], f: (q: ReportQuestion) => number): Float64Array {
  return Float64Array.from(rows, (i) => f(questions[i]));
}

interface PairWork {
  pair: Omit<PairComparison, 'metrics'>;
  /** Entry indices of A and B, and each one's rows of the shared questions (in shared order). */
  entries: [number, number];
  rows: [readonly number[], readonly number[]];
  /** Spec index → where its result goes. */
  slots: { metric: MetricCliKey | 'accuracy'; signal: SignalName | null }[];
  specs: DifferenceSpec[];
  N: number;
}

function preparePair(A: CompareEntry, B: CompareEntry, metricKeys: readonly MetricKey[], bins: number): PairWork {
  const al = alignQuestions(A.model.questions, B.model.questions);
  const qa = A.model.questions, qb = B.model.questions;
  const ra = al.shared.map((s) => s.a), rb = al.shared.map((s) => s.b);
  const yA = column(qa, ra, (q) => q.correct), yB = column(qb, rb, (q) => q.correct);
  const specs: DifferenceSpec[] = [{ confA: yA, yA, confB: yB, yB, stat: accuracyStatistic }];
  const slots: PairWork['slots'] = [{ metric: 'accuracy', signal: null }];
  const signals: SignalName[] = [];
  const skipped: SignalName[] = [];
  for (const s of SIGNAL_ORDER) {
    const ca = column(qa, ra, (q) => signalValue(q, s)), cb = column(qb, rb, (q) => signalValue(q, s));
    const has = (c: Float64Array) => c.some(Number.isFinite);
    if (!has(ca) && !has(cb)) continue;
    if (ca.length === 0 || !ca.every(Number.isFinite) || !cb.every(Number.isFinite)) {
      skipped.push(s);
      continue;
    }
    signals.push(s);
    for (const key of metricKeys) {
      const m = METRICS.find((x) => x.key === key)!;
      // A calibration measure of a signal that is not a probability claims nothing (model/signals.ts); its ranking measures are compared.
      if (m.calibration && !isProbabilitySignal(s)) continue;
      specs.push({ confA: ca, yA, confB: cb, yB, stat: metricStatistic(key, bins) });
      slots.push({ metric: m.cli, signal: s });
    }
  }
  const warning = clustererWarning(A, B);
  const pair = {
    a: A.name,
    b: B.name,
    shared: al.shared.length,
    only_a: al.onlyA,
    only_b: al.onlyB,
    duplicates: { a: al.duplicatesA, b: al.duplicatesB },
    settings_differ: settingsDiffer(A, B),
    warnings: warning ? [warning] : [],
    signals,
    signals_skipped: skipped,
  };
  return { pair, slots, specs, N: al.shared.length, entries: [0, 0], rows: [ra, rb] };
}

/** The default replicates: the largest B the reports were scored with (their intervals' precision), else 1000. */
export function defaultComparisonB(entries: readonly CompareEntry[]): number {
  const Bs = entries.map((e) => e.document.settings.bootstrap?.B).filter((b): b is number => Number.isFinite(b));
  return Bs.length ? Math.max(...Bs) : SCORING_DEFAULTS.bootstrap.B;
}

function defaultBins(entries: readonly CompareEntry[]): number {
  const bins = new Set(entries.map((e) => e.document.settings.bins));
  return bins.size === 1 ? [...bins][0] : SCORING_DEFAULTS.bins;
}

/**
 * One model's ECE intervals at the levels a difference needs, computed once per entry, signal and
 * set of shared rows: when every report holds the same questions, each model's inversion serves
 * every pair it is in.
 */
function eceIntervalCache(bins: number, seed: number, level: number) {
  const cache = new Map<string, EceLevelIntervals>();
  return (entry: number, signal: SignalName, rows: readonly number[], conf: ArrayLike<number>, y: ArrayLike<number>): EceLevelIntervals => {
    const key = `${entry}|${signal}|${rows.join(',')}`;
    let found = cache.get(key);
    if (!found) cache.set(key, (found = eceLevelIntervals(conf, y, level, { bins, seed })));
    return found;
  };
}

/** Every pair (i < j: a = entries[i], b = entries[j]) compared; p-values Holm-adjusted per metric family. */
export function compareReports(entries: readonly CompareEntry[], options: CompareReportsOptions = {}): ReportComparison {
  const B = options.B ?? defaultComparisonB(entries);
  const seed = options.seed ?? SCORING_DEFAULTS.bootstrap.seed;
  const bins = options.bins ?? defaultBins(entries);
  const metricKeys = options.metrics ?? DEFAULT_COMPARED_METRICS;
  const level = 0.95;
  const works: PairWork[] = [];
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) works.push({ ...preparePair(entries[i], entries[j], metricKeys, bins), entries: [i, j] });
  }
  // Every pair uses the same seed: each pair's resamples are the paper's stream over its own shared rows.
  const results = works.map((w) => pairedDifferences(w.specs, w.N, { B, seed, level }));
  // The paper's ECE: each model's own inversion on the shared rows, replacing the bootstrap's.
  const levelIntervals = eceIntervalCache(bins, seed, level);
  works.forEach((w, pi) => w.slots.forEach((s, k) => {
    if (s.metric !== 'ece' || s.signal === null) return;
    const spec = w.specs[k];
    const a = levelIntervals(w.entries[0], s.signal, w.rows[0], spec.confA, spec.yA);
    const b = levelIntervals(w.entries[1], s.signal, w.rows[1], spec.confB, spec.yB);
    const d = eceDifference(a, b);
    results[pi][k] = { difference: results[pi][k].difference, interval: d.interval, p: d.p };
  }));
  // Holm within each metric's family, across pairs × signals.
  const families = new Map<string, { pair: number; spec: number }[]>();
  works.forEach((w, pi) => w.slots.forEach((s, k) => {
    const list = families.get(s.metric) ?? [];
    list.push({ pair: pi, spec: k });
    families.set(s.metric, list);
  }));
  const adjusted = works.map((w) => w.slots.map(() => NaN));
  const familySize: Record<string, number> = {};
  for (const [metric, members] of families) {
    const ps = members.map((m) => results[m.pair][m.spec].p);
    familySize[metric] = holmFamilySize(ps);
    holmAdjust(ps).forEach((p, k) => (adjusted[members[k].pair][members[k].spec] = p));
  }
  const pairs = works.map((w, pi) => {
    const metrics: Record<string, unknown> = {};
    w.slots.forEach((s, k) => {
      const r = results[pi][k];
      const entry: DifferenceEntry = { difference: r.difference, interval: r.interval, p: r.p, p_adjusted: adjusted[pi][k] };
      if (s.signal === null) metrics[s.metric] = entry;
      else ((metrics[s.metric] ??= {}) as Record<string, DifferenceEntry>)[s.signal] = entry;
    });
    return { ...w.pair, metrics: metrics as PairMetrics };
  });
  return {
    pairs,
    method: COMPARISON_METHOD,
    ece_method: ECE_COMPARISON_METHOD,
    correction: COMPARISON_CORRECTION,
    family: 'per metric: every pair × signal compared with that metric (accuracy: every pair)',
    family_size: familySize,
    B,
    seed,
    level,
  };
}
