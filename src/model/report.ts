/**
 * The report document: one versioned JSON value holding everything the report views show.
 * A saved, imported, shared or exported report renders from this alone, with no run attached.
 * It never holds an API key.
 */
import type { ClusteringMethodName } from './clustering-methods';
import type { Interval, PairedBootstrap, Regime, SignalMetrics } from '../core/types';
import type { AbstentionSpread, GuaranteedChoice, SelectiveCounts } from '../core/abstention';
import type { AnswerSimilaritySource, Grade, QuestionSubset } from './rows';
import type { AdaptiveSettings, PartialReport, PTrueSpec, ScoringSpec } from './run-spec';
import type { SignalName } from './signals';
import type { Price } from './cost';
import type { AuditLineRecord, AuditPlanLineRecord } from './audit-repository';

export type { SignalName } from './signals';

export const REPORT_FORMAT = 'semece-report';
/**
 * The shape of the document: raised with every change a reader must know of (a new field or
 * value, a changed meaning), with a step from the previous version in formats/report-versions.ts,
 * so older files and links are upgraded on import (history: docs/REPORT-FORMAT.md).
 */
export const REPORT_VERSION = 3;

export interface ReportSample {
  /** Raw reply text (optional: dropped when a report must be small). */
  raw?: string;
  /** The raw reply's length when it was longer than a report may hold and `raw` was cut. */
  rawLength?: number;
  answer: string;
  confidence: number | null;
  /** Class index. */
  cls: number;
}

export interface ReportClass {
  label: string;
  size: number;
}

/** One question of one model, as every table, chart and drill-down sees it. */
export interface ReportQuestion {
  id: string;
  question: string;
  gold: string;
  n: number;
  sem1: number;
  sem2: number;
  verbalized: number;
  /** Other signals when present (stated probability, logprob …). */
  signals?: Partial<Record<SignalName, number>>;
  correct: 0 | 1;
  grade: Grade;
  /** True when a person overrode the computed grade. */
  overridden?: boolean;
  margin: number;
  stdMargin: number;
  regime: Regime;
  entropy: number;
  nClasses: number;
  modalLabel: string;
  classes?: ReportClass[];
  samples?: ReportSample[];
  /**
   * An adaptively sampled question (settings.adaptive): its selection block, slots
   * 0..selectionSamples−1 of its `n` samples; its Sem2 is the held-out share of that block's modal
   * class (core/adaptive-sem2.ts). Its rounds are replayed from its answers and the rule
   * (pipeline/adaptive-slots.ts adaptiveRoundsOf). Absent: a fixed-n question (reference Sem2).
   */
  selectionSamples?: number;
  /**
   * Short columns of the dataset kept with the question (category, relation, popularity …; a few,
   * bounded by formats/report-schema-fields.ts): what the Slices view and `semece score --by` slice
   * by. Absent in older reports and when the dataset had none.
   */
  fields?: Record<string, string | number>;
}

export interface ExcludedQuestion {
  id: string;
  reason: string;
}

/** A signal's ECE interval ([low, high], the population ECE's) and the p-value of the test of perfect calibration. */
export interface EceInferenceEntry {
  interval: [number, number];
  p: number;
}

/** One equal-width bin's consistency band: the central 95% of a perfectly calibrated model's bin accuracy. */
export interface ConsistencyBandEntry {
  bin: number;
  count: number;
  lo: number;
  hi: number;
}

/** A signal's ranking metrics beside AUROC and AURC (core/prediction-rejection.ts). */
export interface RejectionEntry {
  /** Prediction–rejection ratio at max rejection 1, as LM-Polygraph defines it (random: its exact expectation P/N). */
  prr: number;
  /** Area under the accuracy–rejection curve: 1 − AURC. */
  auarc: number;
}

/** A signal's paper ECE after a recalibration map, with the headline interval and test on the recalibrated confidences. */
export interface RecalibratedEceEntry {
  ece: number;
  interval: [number, number];
  p: number;
}

/**
 * Each scored signal's ECE after a recalibration map fitted on one half of the questions and
 * applied to the other, both ways (core/recalibration.ts crossFittedRecalibration), on the split
 * the seed names. The interval is the headline method's (`method`) on the cross-fitted
 * confidences; it takes them as given, so it describes calibration given the fitted maps, not the
 * variability of the maps themselves (one split is one draw).
 */
export interface RecalibrationMetrics {
  seed: number;
  /** The interval method, as core/ece-inference.ts names it. */
  method: string;
  isotonic: Partial<Record<SignalName, RecalibratedEceEntry>>;
  platt: Partial<Record<SignalName, RecalibratedEceEntry>>;
}

export interface ModelMetrics {
  questions: number;
  excluded: number;
  accuracy: number;
  signals: Partial<Record<SignalName, SignalMetrics>>;
  bootstrap: PairedBootstrap;
  /** Percentile intervals of each signal's paper ECE over the same bootstrap replicates (the authors' triples). */
  eceIntervals: Partial<Record<SignalName, Interval>>;
  /**
   * Each signal's ECE with the bootstrap's bias removed and the basic interval around it
   * ([estimate, low, high], core/bootstrap.ts biasCorrectedInterval). Kept in the document and the
   * CLI (`ece_bias_corrected`) under its true name; no view shows it (the one interval shown is
   * `eceInference`'s). Absent in reports made before it existed.
   */
  eceBiasCorrected?: Partial<Record<SignalName, Interval>>;
  /**
   * Paper ECE per margin regime and signal, with the count of questions in each and, per signal,
   * the bias-corrected ECE with its basic bootstrap interval over resamples of the regime's own
   * questions ([estimate, low, high], core/bias-corrected-ece.ts; absent in reports made before).
   */
  byRegime: Record<
    Regime,
    {
      count: number;
      ece: Partial<Record<SignalName, number>>;
      eceBiasCorrected?: Partial<Record<SignalName, Interval>>;
      /** The regime's ECE interval and calibration test, the method of `eceInferenceMethod` on the regime's own questions. */
      eceInference?: Partial<Record<SignalName, EceInferenceEntry>>;
    }
  >;
  /**
   * The one interval shown beside each signal's paper ECE (every view, export and `semece score`'s
   * `ece_interval`), and the p-value of the test of perfect calibration (`calibration_p`), from
   * core/ece-inference.ts. Absent in reports made before it existed: the page computes it then.
   */
  eceInference?: Partial<Record<SignalName, EceInferenceEntry>>;
  /** The method of `eceInference` (its own and the regimes'), as core/ece-inference.ts names it. */
  eceInferenceMethod?: string;
  /**
   * Per signal and equal-width bin: where a perfectly calibrated model's bin accuracy would fall
   * (central 95%) at these confidences, drawn on the reliability diagram. Absent in older reports.
   */
  consistencyBands?: Partial<Record<SignalName, ConsistencyBandEntry[]>>;
  /** K̄, the mean number of non-empty classes, used for the regime boundary. */
  meanClasses: number;
  /** PRR and AUARC of every scored signal (version 3 on; absent in older reports). */
  rejection?: Partial<Record<SignalName, RejectionEntry>>;
  /** Every scored signal's ECE after cross-fitted isotonic and Platt maps (version 3 on; absent in older reports). */
  recalibration?: RecalibrationMetrics;
  /**
   * Which signal is best calibrated, made with the metrics (same bootstrap settings). Absent in
   * reports saved before it was stored, and in the CLI's scoring without a report document.
   */
  comparison?: SignalComparison;
  /**
   * The same comparison after recalibration: every scored signal's cross-fitted isotonic
   * confidences (probabilities or not), same rule and settings, conditional on the fitted maps.
   * Absent where `comparison` is, and in reports saved before it was stored.
   */
  recalibratedComparison?: SignalComparison;
  /**
   * Each scored signal's abstention threshold at the selective view's default target and seed,
   * with its spread over repeated splits (pipeline/abstention-metrics.ts). Absent in reports
   * saved before it was stored: the view computes it then.
   */
  abstention?: StoredAbstention;
}

/** Abstention thresholds chosen when the report was scored (core/abstention.ts). */
export interface StoredAbstention {
  target: number;
  seed: number;
  delta: number;
  splits: number;
  bySignal: Partial<Record<SignalName, StoredAbstentionEntry>>;
}

export interface StoredAbstentionEntry {
  threshold: number | null;
  reason?: string;
  /** The choice on the selection half, without its list of candidates. */
  choice: Omit<GuaranteedChoice, 'candidates'>;
  selection: SelectiveCounts;
  evaluation: SelectiveCounts;
  spread: Omit<AbstentionSpread, 'target' | 'delta' | 'seed'>;
}

/**
 * Which confidence signal is best calibrated on this data, and by how much
 * (pipeline/signal-comparison.ts): every signal's paper ECE on the questions where all compared
 * signals are defined, with paired bootstrap intervals of each one's ECE minus the best one's.
 */
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
  /**
   * Signals the best one beats: with `selection`, those whose one-sided test rejects
   * ECE(s) ≤ ECE(best) at the per-comparison level; in reports saved before it, those whose
   * bootstrap difference interval lies above 0.
   */
  clearlyBetterThan: SignalName[];
  B: number;
  seed: number;
  /**
   * The rule that names a best signal (pipeline/signal-comparison.ts, docs/STATISTICS.md); absent
   * in reports saved before it, which named the lowest ECE best when the runner-up's bootstrap
   * interval lay above 0.
   */
  selection?: SignalSelection;
}

/** The best signal is named only when every one of `comparisons` one-sided tests rejects. */
export interface SignalSelection {
  /** Stable id of the test of each difference (core/ece-difference-test.ts). */
  method: string;
  /** Chance of naming a best signal when none is better, at most (two tied signals: 2 × perComparison). */
  alpha: number;
  /** Level of each one-sided test. */
  perComparison: number;
  /** Number of comparisons: compared signals − 1. */
  comparisons: number;
  /** Simulated data sets per null hypothesis. */
  draws: number;
  /** Per other signal: plug-in ECE(s) − ECE(best) and the one-sided p-value of H0: ECE(s) ≤ ECE(best). */
  tests: Partial<Record<SignalName, { diff: number; p: number }>>;
  /** Whether the best signal is named: every test rejected (true, vacuously, when only one signal is compared). */
  named: boolean;
}

export interface ModelReport {
  /** Display name, e.g. "openai/gpt-4o-mini". */
  model: string;
  provider?: string;
  metrics: ModelMetrics;
  questions: ReportQuestion[];
  excludedQuestions: ExcludedQuestion[];
  /** ConfidenceBench-style stated probability on multiple choice, when that baseline was run. */
  baseline?: McBaselineSection;
  /**
   * What the graph signals (EigV, Deg, Ecc) were computed over, where they were scored: the
   * embedding clustering's cosines, or the entailment clustering's entailment probabilities, between
   * the answers where every question's row holds them (one source), else the clustering's partition (the 0/1 same-class matrix). Absent in older reports (partition).
   */
  graphSimilarity?: GraphSimilarity;
  /**
   * The price (USD per million input and output tokens) the run metered this model's samples at:
   * the user's price table when the report was made, as the run's cost counter used it. The
   * "Samples spent" view prices the saved samples with it. Absent in older reports, reports of
   * semece score, and where the table had no price for the model (the views then use this app's
   * defaults and say so). Optional, so it raised no version.
   */
  price?: Price;
}

/** The similarity the graph signals used: the partition, or the rows' answer similarity by its source (model/rows.ts AnswerSimilarity). */
export type GraphSimilarity = 'partition' | AnswerSimilaritySource;

/** Mean and sample SD (ddof = 1; NaN for one run) across repeated runs, with each run's value. */
export interface RunSpread {
  mean: number;
  sd: number;
  perRun: number[];
}

/**
 * The stated-probability baseline (ConfidenceBench): repeated runs of one reply per question,
 * Brier score of the stated probability of the chosen option, the always-uniform reference line
 * (k − 1)/k² averaged over questions, accuracy, per category, and the replies scored as uniform
 * guesses because they could not be read, refused, or failed.
 */
export interface McBaselineSection {
  kind: 'confidencebench';
  runs: number;
  /** Option count k of each question, in question order. */
  options: number[];
  brier: RunSpread;
  baselineBrier: number;
  accuracy: RunSpread;
  /** Per category: Brier and accuracy are means over runs. */
  byCategory: { category: string; questions: number; brier: number; baselineBrier: number; accuracy: number }[];
  /** Replies scored as uniform guesses, summed over runs. */
  failures: { unparsable: number; refusals: number; requestFailed: number; total: number; perRun: number[] };
}

/** What produced the report: effective settings, never secrets; the scoring part is what the scorer used. */
export interface ReportSettings extends ScoringSpec {
  /** Samples per question; with `adaptive`, the most any question got. */
  samples: number;
  /** The stopping rule of an adaptive run (model/run-spec.ts); absent for a fixed-n run and in older reports. */
  adaptive?: AdaptiveSettings;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  prompt?: string;
  /** True when each reply's token log-probabilities were asked for (run spec's sampling.logprobs); absent: not asked, or an older report. */
  logprobs?: boolean;
  /** The p(True) request's settings when it was asked (run spec's sampling.pTrue); absent: not asked, or an older report. */
  pTrue?: PTrueSpec;
  /** A method of the table (model/clustering-methods.ts), or 'imported': rows clustered elsewhere. */
  clustering: { method: ClusteringMethodName | 'imported'; detail?: string };
  grading: { method: 'judge' | 'alias' | 'imported' | 'manual'; detail?: string };
}

/** Which questions a report measured: a count always, and how they were drawn when they are a subset. */
export interface ReportDataset {
  name: string;
  questions: number;
  source?: string;
  subset?: QuestionSubset;
}

/** Hashes of a report's questions and settings (model/report-manifest.ts computes them). */
export interface ReportManifest {
  method: string;
  settings: string;
  /** Per model, in the document's order: question id → hash. */
  models: { model: string; questions: Record<string, string> }[];
}

export interface ReportDocument {
  format: typeof REPORT_FORMAT;
  version: typeof REPORT_VERSION;
  title: string;
  createdAt: string;
  /** True for the built-in demo: the views label it as demo data. */
  demo?: boolean;
  /**
   * The repository's toy models (model/test-models.ts) the run used as generator, clusterer or judge:
   * the views label the report, like the demo, as no measurement of any real model. Absent when none.
   */
  testModel?: string[];
  dataset: ReportDataset;
  /** Set on a report of a run that had not finished: how many questions it scores, of how many. */
  partial?: PartialReport;
  settings: ReportSettings;
  models: ModelReport[];
  /** Hashes of each question's samples, classes and grade, and of the settings (model/report-manifest.ts); absent in older reports. */
  manifest?: ReportManifest;
  /**
   * A person's audit of the classes and grades (issue 30), the audit file's lines, attached to share
   * it with the report. Optional and ignored by readers before it, so it raised no version.
   */
  audit?: AuditLineRecord[];
  /** How the attached audit's questions were drawn (the audit file's plan lines); absent when none was kept. */
  auditPlans?: AuditPlanLineRecord[];
  /**
   * The audited questions' automatic class per answer, {model: {question id: classes in sampling
   * order}}, kept where the samples are not (a kept copy of a "rows" share link, share/audit-classes.ts),
   * so the audit's results still compare partitions. Optional and dropped by readers before it.
   */
  auditClasses?: Record<string, Record<string, number[]>>;
}
