/**
 * The score stage's options (what a caller may set: Sem2's splits, bins, the bootstrap, the
 * detail kept, which extras to compute) and the scoring settings they mean. Apart from the stage
 * (score-stage.ts) so the metrics (model-metrics.ts) read them without importing the stage.
 */
import { SCORING_DEFAULTS, type ScoringSpec } from '../model/run-spec';
import type { SignalName } from '../model/signals';

/** Per-sample detail of a report: none (classes only), answers and confidences, or those with raw replies. */
export type SampleDetail = 'none' | 'answers' | 'raw';

export interface ScoreOptions {
  /** Sem2 splits per question (default SCORING_DEFAULTS). */
  R?: number;
  /** Seed of Sem2's per-question default_rng. */
  sem2Seed?: number;
  /** Sem2's selection block: floor(n/2) ('half') or a fixed number of samples. */
  sem2Selection?: 'half' | number;
  /** Bins of the paper ECE. */
  bins?: number;
  /** Bootstrap replicates. */
  B?: number;
  /** Seed of the bootstrap stream. */
  bootstrapSeed?: number;
  /** Per-sample detail kept in the report: none, answers (default), or answers with raw replies. */
  samples?: SampleDetail;
  /** Compute smooth ECE (a few ms per signal; default true). */
  smooth?: boolean;
  /**
   * Give each margin regime its bias-corrected ECE interval (default true): B more resamples, as
   * many again as the paired bootstrap costs; a caller that never shows them can skip them.
   */
  regimeIntervals?: boolean;
  /** Signals to score (default: every signal every question has; the paper's three always). */
  signals?: readonly SignalName[];
  /**
   * Compute what only the report's views show (default true): the signal comparison, the
   * abstention thresholds with their spread over 20 splits, and the consistency bands. `semece
   * score` without --report prints none of them, so it skips them (at 40,000 questions, 2.1 s of
   * the scoring's CPU time became 1.3 s).
   */
  viewExtras?: boolean;
  /** Signals other than the paper's three, by question id (a multiple-choice run's stated probability, logprob). */
  extraSignals?: Readonly<Record<string, Partial<Record<SignalName, number>>>>;
  /**
   * Signals the run offers (a multiple-choice run: every one): the signal comparison lists each,
   * as left out when no question has it (a logprob the provider never returned), not silently.
   */
  comparedSignals?: readonly SignalName[];
}

/** The scoring settings these options mean: the ones given, the defaults for the rest. */
export function scoringUsed(options: ScoreOptions = {}): ScoringSpec {
  const d = SCORING_DEFAULTS;
  return {
    sem2: { R: options.R ?? d.sem2.R, seed: options.sem2Seed ?? d.sem2.seed, selection: options.sem2Selection ?? d.sem2.selection },
    bins: options.bins ?? d.bins,
    bootstrap: { B: options.B ?? d.bootstrap.B, seed: options.bootstrapSeed ?? d.bootstrap.seed },
  };
}

/** Score options that score with these settings. */
export function scoreOptionsFor(scoring: ScoringSpec): ScoreOptions {
  return {
    R: scoring.sem2.R,
    sem2Seed: scoring.sem2.seed,
    sem2Selection: scoring.sem2.selection,
    bins: scoring.bins,
    B: scoring.bootstrap.B,
    bootstrapSeed: scoring.bootstrap.seed,
  };
}
