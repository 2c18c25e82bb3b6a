/**
 * The bounds on what a report document may ask for, in one place: the report schema refuses an
 * imported report, a share link or a stored record outside them (formats/report-schema.ts), the
 * CLI's scoring options use the same ones, and a recompute from an imported report checks its
 * budget before starting (pipeline/overrides-recompute.ts).
 *
 * Why bounds at all: a report from a file or a link is untrusted, and its settings drive real
 * work. A 7.7 KB link with `settings.bins = 1e9` made one browser tab allocate 7.8 GB; a
 * `bootstrap.B = 1e8` kept a core busy for minutes on a grade override. Each bound below is far
 * above anything a real run uses, so only a forged or broken document meets it.
 */

/** Equal-width bins of the paper ECE. */
export const MIN_BINS = 1;
/**
 * Bins of width 0.001: finer than any reliability diagram can draw or any report's questions can
 * fill (the paper uses 10), while each report holds a bins list per signal and per binning.
 */
export const MAX_BINS = 1000;

/**
 * Bootstrap replicates: the paper uses 1,000; 100,000 already gives percentile intervals whose
 * Monte-Carlo error is far below the digits a report shows.
 */
export const MAX_BOOTSTRAP_B = 100_000;

/** Sem2's held-out splits per question (the paper uses 10). */
export const MAX_SEM2_R = 10_000;

/** Samples per question: the report's own list of a question's samples is capped at this length. */
export const MAX_SAMPLES_PER_QUESTION = 100_000;

/**
 * Seeds are non-negative integers (numpy's default_rng); beyond 2^53 − 1 a JSON number no
 * longer holds the integer exactly, so the same report could not reproduce its own intervals.
 */
export const MAX_SEED = Number.MAX_SAFE_INTEGER;

/** Questions per model and per dataset in one report (a large benchmark has tens of thousands). */
export const MAX_REPORT_QUESTIONS = 1_000_000;

/** Models side by side in one report. */
export const MAX_REPORT_MODELS = 1000;

/** Repeated runs of the stated-probability baseline (the wizard offers up to 100). */
export const MAX_BASELINE_RUNS = 10_000;

/** Sampling settings a report records: the ranges the providers and the wizard accept. */
export const MAX_TEMPERATURE = 2;
export const MAX_COMPLETION_TOKENS = 1_000_000;

/**
 * Steps a recompute from a report's rows may take: about rows × B × signals bootstrap steps
 * (plus the bins of each replicate's ECE). One core does about 1.5e8 steps a second, so the limit
 * is some 15 seconds of a worker. A 40,000-question report with the paper's B = 1000 over eight
 * signals is 3.2e8 steps (2 seconds); a forged B or a huge report, minutes to hours, is refused.
 */
export const MAX_RECOMPUTE_STEPS = 2e9;

export interface RecomputeSize {
  rows: number;
  B: number;
  signals: number;
  bins: number;
}

/** The work a recompute of one model's metrics means, in the units of MAX_RECOMPUTE_STEPS. */
export function recomputeSteps({ rows, B, signals, bins }: RecomputeSize): number {
  // The point estimate is one more pass beside the B replicates; each pass bins every signal.
  return (B + 1) * Math.max(1, signals) * (rows + bins);
}

/**
 * Why a recompute of this size is refused, in words, or null when it is within the budget. Checked
 * before any work starts, so a hostile report costs nothing but this arithmetic.
 */
export function recomputeRefusal(size: RecomputeSize): string | null {
  const steps = recomputeSteps(size);
  if (Number.isFinite(steps) && steps <= MAX_RECOMPUTE_STEPS) return null;
  const n = (v: number) => v.toLocaleString('en');
  return (
    `recomputing ${n(size.rows)} questions × ${n(size.B)} bootstrap replicates × ${n(size.signals)} signals ` +
    `(${size.bins} bins) would take about ${steps.toExponential(1)} steps; the limit is ${MAX_RECOMPUTE_STEPS.toExponential(0)}. ` +
    'Score it with `semece score` instead, or with fewer bootstrap replicates (settings.bootstrap.B).'
  );
}

/** A recompute refused before it started because it would take too long (see MAX_RECOMPUTE_STEPS). */
export class RecomputeTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecomputeTooLargeError';
  }
}

/** Throws RecomputeTooLargeError, saying why, when a recompute of this size is over the budget. */
export function assertRecomputeBudget(size: RecomputeSize, what = 'This report is too large to recompute here'): void {
  const refusal = recomputeRefusal(size);
  if (refusal) throw new RecomputeTooLargeError(`${what}: ${refusal}`);
}
