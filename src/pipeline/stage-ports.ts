/**
 * The stage implementations the runner walks through, as one small interface. The worker wires
 * the real ones (providers' sampling, the clusterers, the graders, the scorer); keeping them
 * behind this seam lets the runner stay free of DOM and network code and run in Node tests.
 */
import type { Clusterer } from '../clustering/clusterer';
import type { ReportDataset, ReportDocument, ReportSettings } from '../model/report';
import type { Grader } from '../grading/grader';
import type { ProviderConfig } from '../model/provider';
import type { Price } from '../model/cost';
import type { ClusteringSpec, GradingSpec, ModelLoadProgress, ProgressCounters, RunKeys, SamplingSpec } from '../model/run-spec';
import type { SampleCache } from '../model/sample-cache';
import type { ClusteredRow, Dataset, GradedRow, Result, SampledRow, StageError } from '../model/rows';
import type { QuestionFields } from '../model/question-fields';

export interface SampleStageArgs {
  dataset: Dataset;
  /** The model with its key attached (only its own key). */
  model: ProviderConfig;
  sampling: SamplingSpec;
  cache: SampleCache;
  /** Aborted with reason 'pause' (finish what is in flight, store it, stop) or 'cancel'. */
  signal: AbortSignal;
  price: Price | null;
  /** This model's cumulative counters in this execution (the sampling loop's progress as it is). */
  onCounters(counters: ProgressCounters): void;
  /** A request that failed for good (not one cancelled by a pause or cancel), with its cause. */
  onError(error: StageError): void;
  /** A failed request that was retried or sent again another way (nothing lost): handled, not an error. */
  onHandled?(error: StageError): void;
  onNote(note: string): void;
  /** Settings as actually sent, after capability adjustments. */
  onEffective?(effective: Record<string, unknown>): void;
  /** Request nothing: rows for the questions whose samples are all stored (a partial report). */
  cachedOnly?: boolean;
  /** Where the requests' usage receipts are added up with the samples (sampling.ts `receiptKey`). */
  receiptKey?: string;
  /** An in-browser language model loading (files, bytes, backend), for a model that runs in the page. */
  onModelLoad?(state: ModelLoadProgress): void;
}

/**
 * One row per question, in dataset order, with exactly `sampling.n` samples each (an adaptive
 * run: the samples its rule used, with `selection_samples`), for every
 * question that has them; the others are `failed`, each with the provider's reason (a refused
 * prompt, repeated failures), and the run excludes them from the report.
 */
export interface SampledRows {
  rows: SampledRow[];
  failed: { id: string; reason: string }[];
  /** With `cachedOnly`: questions left out because some of their samples are not stored yet. */
  unsampled?: number;
}

export type SampleStage = (args: SampleStageArgs) => Promise<Result<SampledRows>>;

export interface ScoreModelInput {
  model: string;
  provider: string;
  clustered: ClusteredRow[];
  graded: GradedRow[];
  /** Questions whose clustering failed, with why. */
  excluded: { id: string; reason: string }[];
  /** Ids whose grade a person overrode (already applied to `graded`). */
  overridden: string[];
}

export interface ScoreInput {
  title: string;
  dataset: ReportDataset;
  settings: ReportSettings;
  models: ScoreModelInput[];
  /** The dataset columns each question keeps into the report (by question id), for slicing. */
  fields?: Readonly<Record<string, QuestionFields>>;
}

/** What a run wants to hear from its clusterer besides the classes. */
export interface ClustererHooks {
  /** The in-browser embedding model loading (files, bytes, backend). */
  onModelLoad?(state: ModelLoadProgress): void;
}

export interface RunnerStages {
  sample: SampleStage;
  clusterer(spec: ClusteringSpec, keys: RunKeys, hooks?: ClustererHooks): Clusterer;
  grader(spec: GradingSpec, keys: RunKeys): Grader;
  score(input: ScoreInput): ReportDocument | Promise<ReportDocument>;
}
