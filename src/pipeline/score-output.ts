/**
 * What the score stage hands on: the report document (`buildReport`), the CLI's JSON document
 * (`scoreCliDocument`), and the pooled ECE over several models. Pure, like score.ts.
 */
import { eceEqualWidth } from '../core/calibration';
import type { AuthorsRows } from '../formats/authors-rows';
import {
  REPORT_FORMAT,
  REPORT_VERSION,
  type ModelReport,
  type ReportDocument,
  type ReportSettings,
  type SignalName,
} from '../model/report';
import { PAPER_SIGNALS, SCORE_DEFAULTS, type ScoreOptions } from './score';

export interface ReportMeta {
  title: string;
  dataset: { name: string; source?: string; questions?: number };
  settings: ReportSettings;
  /** ISO time; pass it in so the stage stays deterministic (default: the epoch). */
  createdAt?: string;
  demo?: boolean;
}

/** The report document of one or more scored models. */
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
    dataset: { name: meta.dataset.name, questions: meta.dataset.questions ?? ids.size, source: meta.dataset.source },
    settings: meta.settings,
    models,
  };
  if (meta.demo) doc.demo = true;
  return doc;
}

/** Settings of a report scored from imported authors' files with these options. */
export function importedSettings(options: ScoreOptions = {}, samples = 50): ReportSettings {
  return {
    samples,
    clustering: { method: 'imported' },
    grading: { method: 'imported' },
    sem2: { R: options.R ?? SCORE_DEFAULTS.R, seed: options.sem2Seed ?? SCORE_DEFAULTS.sem2Seed, selection: 'half' },
    bins: options.bins ?? SCORE_DEFAULTS.bins,
    bootstrap: { B: options.B ?? SCORE_DEFAULTS.B, seed: options.bootstrapSeed ?? SCORE_DEFAULTS.bootstrapSeed },
  };
}

/**
 * The paper ECE over several models' rows concatenated (in model order): a pooled ECE, not an
 * average of per-model ECEs. NaN when there are no rows.
 */
export function pooledEce(models: readonly ModelReport[], signal: SignalName, bins = 10): number {
  const conf: number[] = [];
  const y: number[] = [];
  for (const m of models) {
    for (const q of m.questions) {
      conf.push(signal === 'sem1' || signal === 'sem2' || signal === 'verbalized' ? q[signal] : q.signals?.[signal] ?? NaN);
      y.push(q.correct);
    }
  }
  return eceEqualWidth(conf, y, bins);
}

function bySignal<T>(report: ModelReport, pick: (s: NonNullable<ModelReport['metrics']['signals'][SignalName]>) => T) {
  const out: Record<string, T> = {};
  for (const s of PAPER_SIGNALS) {
    const m = report.metrics.signals[s];
    if (m) out[s] = pick(m);
  }
  return out;
}

/**
 * The CLI's `score` document: per-question values under the authors' names first
 * (id, n, sem1, sem2, verbalized, correct, margin), then the metrics with the paper's keys
 * (ece, bootstrap [point, low, high]) followed by the companions. Numbers are plain JSON
 * numbers; NaN becomes null when written (cli/json.ts).
 */
export function scoreCliDocument(report: ModelReport, rows: AuthorsRows, options: ScoreOptions = {}) {
  const m = report.metrics;
  const b = m.bootstrap;
  return {
    questions: report.questions.map((q) => ({
      id: q.id,
      n: q.n,
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
    })),
    metrics: {
      questions: m.questions,
      excluded: m.excluded,
      accuracy: m.accuracy,
      ece: bySignal(report, (s) => s.ece),
      brier: bySignal(report, (s) => s.brier),
      bootstrap: { d_conf: b.d_conf, d_ece: b.d_ece, d_ece_lo: b.d_ece_lo, n_lo: b.n_lo, B: b.B, seed: b.seed },
      ece_intervals: m.eceIntervals,
      ece_equal_mass: bySignal(report, (s) => s.eceEqualMass),
      mce: bySignal(report, (s) => s.mce),
      smooth_ece: bySignal(report, (s) => s.smoothEce),
      auroc: bySignal(report, (s) => s.auroc),
      aurc: bySignal(report, (s) => s.aurc),
      mean_confidence: bySignal(report, (s) => s.meanConfidence),
      by_regime: m.byRegime,
      mean_classes: m.meanClasses,
    },
    model: report.model,
    excluded: report.excludedQuestions,
    duplicates: rows.duplicates,
    unmatched_graded: rows.unmatchedGraded,
    settings: {
      R: options.R ?? SCORE_DEFAULTS.R,
      sem2_seed: options.sem2Seed ?? SCORE_DEFAULTS.sem2Seed,
      bins: options.bins ?? SCORE_DEFAULTS.bins,
      B: options.B ?? SCORE_DEFAULTS.B,
      bootstrap_seed: options.bootstrapSeed ?? SCORE_DEFAULTS.bootstrapSeed,
    },
  };
}

export type ScoreCliDocument = ReturnType<typeof scoreCliDocument>;
