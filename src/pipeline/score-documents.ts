/**
 * What the score stage hands on: the report document (`buildReport`), the CLI's JSON document
 * (`scoreCliDocument`), and the pooled ECE over several models. Pure, like score.ts.
 */
import { eceEqualWidth } from '../core/calibration';
import type { SignalMetrics } from '../core/types';
import type { AuthorsRows } from '../formats/authors-rows';
import { METRICS, type MetricCliKey } from '../model/metrics';
import {
  REPORT_FORMAT,
  REPORT_VERSION,
  type EceInferenceEntry,
  type ModelReport,
  type ReportDataset,
  type ReportDocument,
  type ReportSettings,
} from '../model/report';
import { isProbabilitySignal, SIGNAL_NAMES, signalValue, type SignalName } from '../model/signals';
import { fitReportLimits } from '../formats/report-limits';
import { testModelsUsed } from '../model/test-models';
import { scoringUsed, type ScoreOptions } from './score-stage';

export interface ReportMeta {
  title: string;
  dataset: Omit<ReportDataset, 'questions'> & { questions?: number };
  settings: ReportSettings;
  /** ISO time; pass it in so the stage stays deterministic (default: the epoch). */
  createdAt?: string;
  demo?: boolean;
}

/** The report's dataset line: the count given (else the ids seen) and, for a drawn subset, how it was drawn. */
function reportDataset(d: ReportMeta['dataset'], seen: number): ReportDataset {
  const out: ReportDataset = { name: d.name, questions: d.questions ?? seen, source: d.source };
  if (d.subset) out.subset = d.subset;
  return out;
}

/**
 * The report document of one or more scored models, its text cut to the limits a report is read
 * back with (a reply longer than MAX_STRING_LENGTH would otherwise make the saved report, and
 * every file made from it, unopenable).
 */
export function buildReport(models: ModelReport[], meta: ReportMeta): ReportDocument {
  const ids = new Set<string>();
  for (const m of models) {
    for (const q of m.questions) ids.add(q.id);
    for (const q of m.excludedQuestions) ids.add(q.id);
  }
  const doc: ReportDocument = {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    title: meta.title,
    createdAt: meta.createdAt ?? new Date(0).toISOString(),
    dataset: reportDataset(meta.dataset, ids.size),
    settings: meta.settings,
    models,
  };
  if (meta.demo) doc.demo = true;
  // A run on the repository's toy models reads like any report: marked, so every view labels it.
  const toys = testModelsUsed([...models.map((m) => m.model), meta.settings.clustering.detail, meta.settings.grading.detail]);
  if (toys.length > 0 && !meta.demo) doc.testModel = toys;
  return fitReportLimits(doc);
}

/** Settings of a report scored from imported authors' files with these options (the scoring as used). */
export function importedSettings(options: ScoreOptions = {}, samples = 50, methods?: AuthorsRows['methods']): ReportSettings {
  return {
    samples,
    // The methods `semece cluster` and `semece grade` record in their rows; the authors' rows have none.
    clustering: methods?.clustering ?? { method: 'imported' },
    grading: methods?.grading ?? { method: 'imported' },
    ...scoringUsed(options),
  };
}

/** The signals the report scored, in the table's order: the paper's three and every other one asked for and computable. */
function scoredNames(report: ModelReport): SignalName[] {
  return SIGNAL_NAMES.filter((s) => report.metrics.signals[s] !== undefined);
}

/** One metric of every scored signal keyed by signal; a calibration metric (`only: 'probabilities'`) of the signals that are probabilities alone. */
function bySignal<T>(report: ModelReport, pick: (s: NonNullable<ModelReport['metrics']['signals'][SignalName]>) => T, { only }: { only: 'probabilities' | 'all' }) {
  const out: Record<string, T> = {};
  for (const s of scoredNames(report)) {
    if (only === 'probabilities' && !isProbabilitySignal(s)) continue;
    out[s] = pick(report.metrics.signals[s]!);
  }
  return out;
}

/** The entries of a by-signal map for the scored signals that are probabilities (a calibration measure means nothing for the others). */
function probabilitiesOf<T>(report: ModelReport, bySignalName: Partial<Record<SignalName, T>>): Partial<Record<SignalName, T>> {
  return Object.fromEntries(scoredNames(report).filter((s) => isProbabilitySignal(s) && bySignalName[s] !== undefined).map((s) => [s, bySignalName[s]]));
}

/** One entry per scored signal of a by-signal map (nothing for a report without it). */
function scoredOf<T, U>(report: ModelReport, bySignalName: Partial<Record<SignalName, T>> | undefined, pick: (v: T) => U): Partial<Record<SignalName, U>> {
  return Object.fromEntries(scoredNames(report).filter((s) => bySignalName?.[s] !== undefined).map((s) => [s, pick(bySignalName![s]!)]));
}

/** Each scored signal's recalibrated ECE: {isotonic: {ece, interval, p}, platt: {…}}. */
function eceRecalibrated(report: ModelReport) {
  const r = report.metrics.recalibration;
  if (!r) return {};
  return Object.fromEntries(
    scoredNames(report)
      .filter((s) => r.isotonic[s] && r.platt[s])
      .map((s) => [s, { isotonic: r.isotonic[s]!, platt: r.platt[s]! }]),
  );
}

/** One field of each signal's stored ECE inference (nothing for a report without it). */
function inferenceField<K extends keyof EceInferenceEntry>(inf: Partial<Record<SignalName, EceInferenceEntry>> | undefined, key: K) {
  return Object.fromEntries(Object.entries(inf ?? {}).map(([s, e]) => [s, e![key]])) as Partial<Record<SignalName, EceInferenceEntry[K]>>;
}

/**
 * The CLI's `score` document: per-question values under the authors' names first
 * (id, n, sem1, sem2, verbalized, correct, margin …), and `signals` {name: stored value} of every
 * scored signal (a confidence in [0, 1]; for an uncertainty score its confidence form,
 * model/signals.ts); then the metrics: accuracy, every metric of the metrics table under its CLI
 * key (ece, brier, ece_equal_mass …; a calibration metric for each scored signal that is a
 * probability, a ranking metric, auroc and aurc, for every scored signal), `prr` and `auarc` of
 * every scored signal, `ece_recalibrated` {signal: {isotonic, platt: {ece, interval, p}}}, the paired
 * bootstrap [point, low, high], the ECE intervals: `ece_interval` {signal: [low, high]}, the one
 * interval the report shows beside each ECE (core/ece-inference.ts, method `ece_interval_method`),
 * `calibration_p` {signal: p-value of the test of perfect calibration}, the authors' percentile
 * triples `ece_intervals` and the bootstrap bias-corrected ECE with its basic interval
 * `ece_bias_corrected` (`ece_debiased`: the same values under their old name, an alias kept for
 * scripts); smooth ECE's bandwidth, the regimes (each with its `ece_interval` and `calibration_p`,
 * and its bias-corrected ECE when `print.regimeIntervals`: the report was scored with them).
 * Numbers are plain JSON numbers;
 * NaN becomes null when written (cli/json.ts). `settings` is the scoring exactly as used.
 */
export function scoreCliDocument(report: ModelReport, rows: AuthorsRows, options: ScoreOptions = {}, print: { regimeIntervals?: boolean } = {}) {
  const m = report.metrics;
  const b = m.bootstrap;
  const used = scoringUsed(options);
  const names = scoredNames(report);
  const perSignal = Object.fromEntries(METRICS.map((metric) => [metric.cli, bySignal(report, (s) => s[metric.key], { only: metric.calibration ? 'probabilities' : 'all' })])) as Record<
    MetricCliKey,
    Record<string, number | SignalMetrics['brier']>
  >;
  return {
    questions: report.questions.map((q) => ({
      id: q.id,
      n: q.n,
      // An adaptively sampled question: its selection block (its Sem2 is the held-out share of that block's modal class).
      ...(q.selectionSamples !== undefined ? { selection_samples: q.selectionSamples } : {}),
      sem1: q.sem1,
      sem2: q.sem2,
      verbalized: q.verbalized,
      correct: q.correct,
      margin: q.margin,
      std_margin: q.stdMargin,
      regime: q.regime,
      entropy: q.entropy,
      n_classes: q.nClasses,
      grade: q.grade,
      signals: Object.fromEntries(names.map((s) => [s, signalValue(q, s)])),
    })),
    metrics: {
      questions: m.questions,
      excluded: m.excluded,
      accuracy: m.accuracy,
      ...perSignal,
      prr: scoredOf(report, m.rejection, (r) => r.prr),
      auarc: scoredOf(report, m.rejection, (r) => r.auarc),
      ece_recalibrated: eceRecalibrated(report),
      bootstrap: { d_conf: b.d_conf, d_ece: b.d_ece, d_ece_lo: b.d_ece_lo, n_lo: b.n_lo, B: b.B, seed: b.seed },
      ece_interval: probabilitiesOf(report, inferenceField(m.eceInference, 'interval')),
      calibration_p: probabilitiesOf(report, inferenceField(m.eceInference, 'p')),
      ece_interval_method: m.eceInferenceMethod ?? null,
      ece_intervals: probabilitiesOf(report, m.eceIntervals),
      // 2·ECE − the replicates' mean with its basic interval, under its true name and its old one (an alias).
      ece_bias_corrected: probabilitiesOf(report, m.eceBiasCorrected ?? {}),
      ece_debiased: probabilitiesOf(report, m.eceBiasCorrected ?? {}),
      smooth_ece_bandwidth: bySignal(report, (s) => s.smoothEceBandwidth ?? NaN, { only: 'probabilities' }),
      by_regime: Object.fromEntries(
        Object.entries(m.byRegime).map(([regime, r]) => [
          regime,
          {
            count: r.count,
            ece: probabilitiesOf(report, r.ece),
            ece_interval: probabilitiesOf(report, inferenceField(r.eceInference, 'interval')),
            calibration_p: probabilitiesOf(report, inferenceField(r.eceInference, 'p')),
            ...(print.regimeIntervals ? { ece_bias_corrected: probabilitiesOf(report, r.eceBiasCorrected ?? {}), ece_debiased: probabilitiesOf(report, r.eceBiasCorrected ?? {}) } : {}),
          },
        ]),
      ),
      mean_classes: m.meanClasses,
    },
    model: report.model,
    excluded: report.excludedQuestions,
    duplicates: rows.duplicates,
    unmatched_graded: rows.unmatchedGraded,
    settings: {
      R: used.sem2.R,
      sem2_seed: used.sem2.seed,
      ...(used.sem2.selection === 'half' ? {} : { sem2_selection: used.sem2.selection }),
      bins: used.bins,
      B: used.bootstrap.B,
      bootstrap_seed: used.bootstrap.seed,
    },
  };
}

export type ScoreCliDocument = ReturnType<typeof scoreCliDocument>;
