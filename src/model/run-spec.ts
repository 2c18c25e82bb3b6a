/**
 * What a run is: the settings a user chose (never a key), its status and its progress.
 * These are plain data: they are stored in IndexedDB, posted between the worker and the page,
 * and shown on the Runs page. Keys travel beside a RunSpec, in memory, as a RunKeys map.
 */
import type { ProviderConfig } from './provider';
import type { Dataset, StageError } from './rows';
import { clusteringApiModel, type ClusteringSpec } from './clustering-methods';
import type { AdaptiveRule } from '../core/adaptive-rule';

/** The stopping rule's settings as a run records them: the rule without its maximum (the run's `n`). */
export type AdaptiveSettings = Omit<AdaptiveRule, 'maxSamples'>;

/** A model as a run records it: where to reach it, never how to authenticate. */
export type ModelSpec = Omit<ProviderConfig, 'apiKey'>;

export interface SamplingSpec {
  /** Samples per question; with `adaptive`, the most any question gets. */
  n: number;
  /**
   * Set: each question is sampled in rounds and the rule (core/adaptive-rule.ts) stops it when
   * its first answers agree (pipeline/adaptive-slots.ts). Absent: every question gets n.
   */
  adaptive?: AdaptiveSettings;
  temperature: number;
  topP?: number;
  maxTokens: number;
  /** Generation prompt template; `{question}` is replaced by the question text. */
  prompt: string;
  /** Requests in flight at once per model. */
  concurrency: number;
  /**
   * Ask for each reply's token log-probabilities where the provider returns them, so each sample
   * carries its sequence log-probability (the likelihood-weighted semantic entropy reads them).
   * Absent or false: not asked, and the samples' cache keys are those of a run without it.
   */
  logprobs?: boolean;
  /** One extra request per question, p(True) (pipeline/p-true.ts); absent: not asked. */
  pTrue?: PTrueSpec;
}

/**
 * p(True) (Kadavath et al. 2022): after sampling, the model is asked whether the proposed (most
 * frequent) answer is true: one request, read from logprobs where the provider returns them, and
 * otherwise `samples` replies whose share of "True" is the value.
 */
export interface PTrueSpec {
  /** Replies asked when logprobs are not returned (the first one included). */
  samples: number;
  /** Show the other sampled answers as brainstormed ideas (LM-Polygraph's p_true_sampling). */
  brainstorm: boolean;
}

export const P_TRUE_DEFAULTS: PTrueSpec = Object.freeze({ samples: 10, brainstorm: false });

/** A clustering method and its settings: one per row of the methods table (model/clustering-methods.ts). */
export type { ClusteringSpec } from './clustering-methods';

export type GradingSpec = { method: 'alias' } | { method: 'judge'; judge: ModelSpec; prompt?: { system: string; user: string } };

/**
 * How the score stage computes its numbers (SEMECE.md): Sem2's splits, the paper ECE's bins and
 * the paired bootstrap. The report records exactly these values.
 */
export interface ScoringSpec {
  /** R splits from a default_rng(seed) reset per question; selection block floor(n/2) ('half') or a fixed size. */
  sem2: { R: number; seed: number; selection: 'half' | number };
  /** Equal-width bins of the paper ECE (edges i·(1/bins)). */
  bins: number;
  /** B replicates from one default_rng(seed) stream. */
  bootstrap: { B: number; seed: number };
}

/** The paper's reference settings: the one definition of the scoring defaults. */
export const SCORING_DEFAULTS: ScoringSpec = Object.freeze({
  sem2: Object.freeze({ R: 10, seed: 0, selection: 'half' as const }),
  bins: 10,
  bootstrap: Object.freeze({ B: 1000, seed: 7 }),
});

export interface RunSpec {
  title: string;
  dataset: Dataset;
  /** One or several models, sampled side by side on the same questions. */
  models: ModelSpec[];
  sampling: SamplingSpec;
  clustering: ClusteringSpec;
  grading: GradingSpec;
  /** Scoring settings; a spec saved before they were recorded has none and scores with SCORING_DEFAULTS. */
  scoring?: ScoringSpec;
  /**
   * Set for a multiple-choice run (ConfidenceBench stated probability, src/multiple-choice/job.ts)
   * instead of the open-answer Sem-ECE pipeline; sampling/clustering/grading are then unused.
   */
  mc?: McJobSpec;
}

/** Settings of a multiple-choice run: repeated runs of the stated-probability prompt, optional Sem-ECE. */
export interface McJobSpec {
  runs: number;
  /** Run r uses seed + r for its fallback letters. */
  seed: number;
  /** Sem-ECE samples per question on the same questions; 0 = off. */
  samples: number;
  logprobs: boolean;
}

/**
 * API keys for one run, by `keyId` of the provider they belong to. Held in memory only: the
 * worker attaches a key to a provider config whose keyId matches, so a key is only ever sent to
 * its own provider.
 */
export type RunKeys = Record<string, string>;

export const STAGES = ['dataset', 'sample', 'cluster', 'grade', 'score', 'report'] as const;
export type StageName = (typeof STAGES)[number];

export type RunStatus = 'queued' | 'running' | 'paused' | 'cancelled' | 'failed' | 'done';

export interface StageProgress {
  status: 'waiting' | 'running' | 'done' | 'failed' | 'skipped';
  done: number;
  total: number;
  /** Items taken from the cache instead of recomputed. */
  cached: number;
}

/**
 * The counters of sampling, in the one shape the sampling loop reports, the run sums over its
 * models, the worker posts and the page draws (RunProgress and SamplingProgress both extend it).
 */
export interface ProgressCounters {
  /**
   * Requests sent, by how they ended: `done` answered, `failed` failed for good (not counting
   * requests cancelled by a pause or cancel), `handled` failed and then retried or sent again
   * another way (a rate limit, a server error, the n-probe's refused several-reply request): each
   * HTTP request is counted once, so done + failed + handled is every request sent. `retrying`
   * is a gauge (requests waiting to retry now), not a running total. `handled` is absent in
   * records stored before it was counted.
   */
  requests: { done: number; failed: number; retrying: number; handled?: number };
  /**
   * `done` counts stored samples: found in the cache or newly fetched. An adaptive run's `total`
   * starts at questions × the maximum and shrinks as each question stops; `upTo` is true while
   * it is still only that bound (some question may yet stop early).
   */
  samples: { done: number; total: number; upTo?: boolean };
  tokens: { input: number; output: number };
  /** US dollars from the price table; null when a model has no price. */
  cost: number | null;
  /** Estimated ms left; null until there is a rate to go on. */
  etaMs: number | null;
}

export type SamplingState = 'running' | 'paused' | 'done' | 'incomplete' | 'cancelled' | 'stopped';

/** The sampling loop's progress over one model and one execution: the counters, with its own detail. */
export interface SamplingProgress extends ProgressCounters {
  state: SamplingState;
  requests: ProgressCounters['requests'] & { handled: number; retries: number; inFlight: number };
  /** `cached`: found in the cache before the run started. */
  samples: ProgressCounters['samples'] & { cached: number };
  elapsedMs: number;
}

/** Live counters of a run; what the progress panel draws. `etaMs` is for the current stage. */
export interface RunProgress extends ProgressCounters {
  stage: StageName;
  stages: Record<StageName, StageProgress>;
  /** Most recent errors with their cause, newest last (capped): only what failed (a request that failed for good, a question left out, a stage). */
  errors: StageError[];
  /** Most recent handled events, newest last (capped): failures that were retried or worked around, so nothing was lost. */
  handled?: StageError[];
  /** Capability findings and other notes ("returned 1 of 5 choices: n limited to 1"). */
  notes: string[];
  /** The in-browser model of the clustering stage (embedding or NLI), while it loads and once loaded. */
  model?: ModelLoadProgress;
  /** A multiple-choice run: repeated runs done of all (over every model). */
  mc?: { runsDone: number; runsTotal: number };
  /**
   * Set when the sampling counters are read back from the usage receipts stored with the samples
   * (pipeline/runner.ts): then only the judges' part comes from this checkpoint.
   */
  ledger?: true;
  /** The judges' (clustering and grading) tokens and cost within `tokens` and `cost`. */
  judge?: { tokens: { input: number; output: number }; cost: number | null };
}

/** One file of a model being fetched (bytes from Transformers.js's progress events). */
export interface ModelFileProgress {
  file: string;
  loaded: number;
  /** Null while the size is unknown (no Content-Length yet). */
  total: number | null;
  done: boolean;
}

/** Loading an in-browser model: each file's bytes, then the backend that runs it and why. */
export interface ModelLoadProgress {
  model: string;
  /**
   * What the model does: for the clustering stage ('embedding', 'nli'; absent: the embedding model,
   * records before NLI models), or the in-browser language model of the sample stage ('generation').
   */
  role?: 'embedding' | 'nli' | 'generation';
  status: 'loading' | 'ready' | 'failed';
  files: ModelFileProgress[];
  /** What loading is doing once the files are in ('starting the model', 'trying WebGPU'). */
  phase?: string;
  /** Set once the model is loaded. */
  device?: 'webgpu' | 'wasm';
  /** Why WASM runs the model: WebGPU absent, turned off, failed, or disagreeing with WASM. */
  note?: string;
  error?: string;
}

/** A run as stored: settings without keys, status, progress. */
/** A report made before its run finished: the questions with all their samples, of all, and the run's status then. */
export interface PartialReport {
  questions: number;
  of: number;
  status: RunStatus;
}

export interface RunRecord {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  status: RunStatus;
  spec: RunSpec;
  progress: RunProgress;
  /** Why the run stopped, when it failed. */
  error?: StageError;
  /** Settings as actually sent per model (after capability adjustments). */
  effective?: Record<string, Record<string, unknown>>;
  /** Key of the saved report document, once the run is done. */
  reportId?: string;
  /** Questions the report leaves out, with why (a refused prompt, a failed clustering …): "retry failed questions" asks for them again. */
  excluded?: { model: string; id: string; reason: string }[];
  /** Providers (keyIds, never keys) that were given a key when the run started: after a reload it waits for that key. */
  keyed?: string[];
  /** The saved report is partial (made while the run was paused, cancelled or failed): its counts. */
  partialReport?: PartialReport;
  /** Why the last partial report could not be made. */
  partialError?: StageError;
}

/** The provider a key belongs to: preset plus the origin requests go to. */
export function keyId(model: Pick<ModelSpec, 'preset' | 'baseUrl'>): string {
  let origin = model.baseUrl;
  try {
    origin = new URL(model.baseUrl).origin;
  } catch {
    // An unparsable base URL still gets a stable id; the request itself will fail with a clear error.
  }
  return `${model.preset}@${origin}`;
}

/** Every model a run sends requests to: the sampled ones and, in an open-answer run, its judges. */
export function runModels(spec: RunSpec): ModelSpec[] {
  if (spec.mc) return spec.models;
  const clusteringJudge = clusteringApiModel(spec.clustering);
  return [...spec.models, ...(clusteringJudge ? [clusteringJudge] : []), ...(spec.grading.method === 'judge' ? [spec.grading.judge] : [])];
}

/**
 * The providers (one model each) that were given a key when the run started (RunRecord.keyed) but
 * have none in `keys`: resuming without it would send unauthenticated requests and fail on a 401.
 * `models`: those that will be asked (default: all of the run's).
 */
export function keysNotGiven(run: Pick<RunRecord, 'spec' | 'keyed'>, keys: RunKeys, models: ModelSpec[] = runModels(run.spec)): ModelSpec[] {
  const keyed = new Set(run.keyed ?? []);
  const byId = new Map(models.map((m) => [keyId(m), m]));
  return [...byId].filter(([id]) => keyed.has(id) && !keys[id]).map(([, m]) => m);
}

/** The model's provider config with its own key attached (and no other): the one place a key meets a model. */
export function withItsKey(model: ModelSpec, keys: RunKeys): ProviderConfig {
  const apiKey = keys[keyId(model)];
  return apiKey ? { ...model, apiKey } : { ...model };
}

/** The whole stopping rule of an adaptive run (its settings with `n` as the maximum); undefined for a fixed-n run. */
export function adaptiveRuleOf(sampling: { n: number; adaptive?: AdaptiveSettings }): AdaptiveRule | undefined {
  return sampling.adaptive ? { ...sampling.adaptive, maxSamples: sampling.n } : undefined;
}

/** The scoring settings a run uses: its own, or the defaults where a spec has none (or only some). */
export function scoringOf(spec: Pick<RunSpec, 'scoring'>): ScoringSpec {
  const s = spec.scoring;
  return {
    sem2: { ...SCORING_DEFAULTS.sem2, ...s?.sem2 },
    bins: s?.bins ?? SCORING_DEFAULTS.bins,
    bootstrap: { ...SCORING_DEFAULTS.bootstrap, ...s?.bootstrap },
  };
}

/** Display name of a model in reports and tables. */
export function modelLabel(model: Pick<ModelSpec, 'preset' | 'model'>): string {
  return `${model.preset}/${model.model}`;
}

export function emptyProgress(totalSamples = 0): RunProgress {
  const stage = (): StageProgress => ({ status: 'waiting', done: 0, total: 0, cached: 0 });
  return {
    stage: 'dataset',
    stages: { dataset: stage(), sample: stage(), cluster: stage(), grade: stage(), score: stage(), report: stage() },
    requests: { done: 0, failed: 0, retrying: 0 },
    samples: { done: 0, total: totalSamples },
    tokens: { input: 0, output: 0 },
    cost: 0,
    etaMs: null,
    errors: [],
    notes: [],
  };
}

/** Strips anything key-like from a model spec: the guard every stored record goes through. */
export function withoutKey<T extends object>(model: T): Omit<T, 'apiKey'> {
  const { apiKey: _dropped, ...rest } = model as T & { apiKey?: string };
  return rest;
}
