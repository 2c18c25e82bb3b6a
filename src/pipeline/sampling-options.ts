/** What the sampling loop (sampling.ts `runSampling`) is given and gives back. */
import type { GenerationSettings, SamplingProvider } from '../model/provider.ts';
import type { Price } from '../model/cost.ts';
import type { SampleCache } from '../model/sample-cache.ts';
import type { Question, Sample, StageError } from '../model/rows.ts';
import type { AdaptiveSettings, SamplingProgress } from '../model/run-spec.ts';

/** A reply as stored: its question, its sample index, its cache key and what was read from it. */
export interface StoredReply {
  questionId: string;
  index: number;
  key: string;
  sample: Sample;
  /** On the first reply of each request: the request's tokens (its receipt goes with the batch that stores it). */
  request?: { input: number; output: number };
}

export interface SamplingOptions {
  questions: Question[];
  provider: SamplingProvider;
  settings: GenerationSettings;
  /** Samples per question; with `adaptive`, the most a question gets. */
  n: number;
  /**
   * Sample in rounds, each question stopped by this rule (core/adaptive-rule.ts, with n as its
   * maximum; pipeline/adaptive-slots.ts): its samples are slots 0..k−1 of the same cache keys.
   */
  adaptive?: AdaptiveSettings;
  promptTemplate?: string;
  cache: SampleCache;
  /**
   * Aborted with reason 'pause': no new requests; those in flight finish and are stored, and the
   * result is 'paused'. Aborted with any other reason: requests in flight are aborted too, and the
   * result is 'cancelled'. Either way a later run over the same cache asks only for what is missing.
   */
  signal?: AbortSignal;
  onProgress?: (p: SamplingProgress) => void;
  /** Called after each batch of samples is stored. */
  onSamples?: (batch: StoredReply[]) => void;
  price?: Price | null;
  /** Requests in flight at once; defaults to the provider's concurrency (or 8). */
  concurrency?: number;
  /** A question whose requests fail this many times after retries is left incomplete. */
  maxFailuresPerQuestion?: number;
  progressIntervalMs?: number;
  now?: () => number;
  /** Send nothing: only find what is stored (a partial report scores the questions already complete). */
  cachedOnly?: boolean;
  /**
   * Where the requests' usage is added up, with the samples they stored (a run's model): the
   * caller reads it back with `cache.usage(receiptKey)` for counters that match what is stored.
   */
  receiptKey?: string;
}

export interface SamplingResult {
  state: 'done' | 'incomplete' | 'paused' | 'cancelled' | 'stopped';
  /** Why the run stopped (auth, quota, bad request, a cache that cannot be written …). */
  error?: StageError;
  progress: SamplingProgress;
  /** Settings as sent (after capability adjustments), to store with the run. */
  effective: Partial<GenerationSettings> & { n: number };
  /** Run-time capability findings (e.g. the n limit lowered). */
  notes: string[];
  /**
   * Questions still short of samples: `refused` when the provider refused the prompt (a 400; asking
   * again gets the same answer until something changes), else after repeated retryable failures.
   */
  incomplete: { questionId: string; missing: number; error?: StageError; refused?: boolean }[];
  /**
   * The key base of each question sampled (first row per id, in dataset order), so the caller
   * reads the stored samples back (readSamples) without hashing every question again.
   */
  keyBases: Map<string, string>;
  /**
   * An adaptive run: each question the rule has stopped, by id, with its selection block and the
   * samples it uses (slots 0..samples−1; slots past them, cached by another run, are not its own).
   */
  adaptive?: Map<string, { selection: number; samples: number }>;
}
