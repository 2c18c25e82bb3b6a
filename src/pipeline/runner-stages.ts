/**
 * The stage implementations the runner walks through, as one small interface. The worker wires
 * the real ones (providers' sampling, the clusterers, the graders, the scorer); keeping them
 * behind this seam lets the runner stay free of DOM and network code and run in Node tests.
 */
import type { Clusterer } from '../clustering/types';
import type { ReportDocument, ReportSettings } from '../formats/report-document';
import type { ProviderConfig, RequestEvent, Usage } from '../providers/types';
import type { ClusteringSpec, GradingSpec, RunKeys, SamplingSpec } from './run-types';
import type { SampleCache } from './sample-cache';
import type { ClusteredRow, Dataset, Grade, GradedRow, Question, Result, SampledRow } from './types';

export interface SampleStageArgs {
  dataset: Dataset;
  /** The model with its key attached (only its own key). */
  model: ProviderConfig;
  sampling: SamplingSpec;
  cache: SampleCache;
  signal: AbortSignal;
  onRequest(event: RequestEvent): void;
  /** Samples now available for the run (found in the cache or newly stored). */
  onSamples(count: number): void;
  onNote(note: string): void;
  /** Called once per question group with its sample keys, before sampling it. */
  onKeys?(questionKey: string, sampleKeys: string[]): void;
}

/** One row per question, in dataset order, with exactly `sampling.n` samples each. */
export type SampleStage = (args: SampleStageArgs) => Promise<Result<SampledRow[]>>;

export type GradeOutcome = Result<Grade> & { usage?: Usage; calls?: number };

export interface RunGrader {
  grade(question: Question, modalLabel: string, signal?: AbortSignal): Promise<GradeOutcome>;
}

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
  dataset: { name: string; questions: number; source?: string };
  settings: ReportSettings;
  models: ScoreModelInput[];
}

export interface RunnerStages {
  sample: SampleStage;
  clusterer(spec: ClusteringSpec, keys: RunKeys): Clusterer;
  grader(spec: GradingSpec, keys: RunKeys): RunGrader;
  score(input: ScoreInput): ReportDocument | Promise<ReportDocument>;
}
