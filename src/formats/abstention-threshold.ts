/**
 * The abstention threshold as a small JSON document: which report, model and signal it was
 * chosen for, the target error, the split that held questions out, and the coverage, error and
 * SimpleQA-style counts it gave on the held-out half with their 95 % Wilson intervals
 * (core/abstention.ts). The app writes it from the selective-prediction view and reads it back
 * there, through its schema (abstention-threshold-schema.ts, loaded only when a file is opened,
 * so zod stays out of the report's first load), so every file it writes it can also open.
 */
import type { AbstentionResult, AbstentionSpread, SelectiveCounts } from '../core/abstention';
import type { SignalName } from '../model/signals';

export const THRESHOLD_FORMAT = 'semece-abstention-threshold';
export const THRESHOLD_VERSION = 1;
/** Files this size are hand-made or not ours: the document is a few hundred bytes. */
export const MAX_THRESHOLD_BYTES = 64 * 1024;

/** The rule, in words, as the document carries it so the file explains itself. */
export const THRESHOLD_RULE =
  'Answer when confidence >= threshold. Questions split by numpy default_rng(seed).permutation(N): the first floor(N/2) select the threshold, ' +
  'the rest evaluate it. Selection: at most 50 thresholds tried (the distinct confidences, or those answering 2%, 4%, ..., 100% of the half); ' +
  'the threshold is the lowest whose Clopper-Pearson upper bound on the selective error, at confidence 1 - delta/tried (Bonferroni), is <= target, ' +
  'so with probability >= 1 - delta its true selective error is <= target. Intervals: 95% Wilson score. ' +
  'An error is Y = 0 (a reply graded NOT_ATTEMPTED that is answered counts as an error); threshold null means abstain on every question. ' +
  'spread: the same over splits with seeds seed, seed + 1, ...: the held-out error\'s median and range, and how often it exceeded the target.';

/** Counts and rates on one half; NaN in memory, null in the file. */
export interface ThresholdCounts {
  questions: number;
  answered: number;
  correct: number;
  incorrect: number;
  notAttempted: number;
  abstained: number;
  declined: number;
  coverage: [number, number, number];
  error: [number, number, number];
}

export interface ThresholdDocument {
  format: typeof THRESHOLD_FORMAT;
  version: typeof THRESHOLD_VERSION;
  report: { title: string; createdAt: string; dataset: string };
  model: string;
  signal: SignalName;
  target: number;
  threshold: number | null;
  rule: string;
  split: { seed: number; selection: number; evaluation: number };
  interval: 'wilson-95';
  selection: ThresholdCounts;
  evaluation: ThresholdCounts;
  /** The guarantee of the choice (absent in files written before it, whose rule had none). */
  guarantee?: { delta: number; tried: number; bound: number | null };
  /** The held-out error over repeated seeded splits (absent in older files). */
  spread?: ThresholdSpread;
}

export interface ThresholdSpread {
  splits: number;
  heldOutError: { median: number; min: number; max: number };
  exceeded: number;
  abstainedOnAll: number;
}

export interface ThresholdSource {
  report: { title: string; createdAt: string; dataset: string };
  model: string;
  signal: SignalName;
}

function countsOf(c: SelectiveCounts): ThresholdCounts {
  const { questions, answered, correct, incorrect, notAttempted, abstained, declined, coverage, error } = c;
  return { questions, answered, correct, incorrect, notAttempted, abstained, declined, coverage: [...coverage], error: [...error] };
}

/** What a threshold document is made from: a result of core/abstention.ts, or one a report stored. */
export type ThresholdResult = Pick<AbstentionResult, 'target' | 'seed' | 'threshold' | 'selection' | 'evaluation'> & {
  choice: Pick<AbstentionResult['choice'], 'delta' | 'tried' | 'bound'>;
};

export function thresholdDocument(
  source: ThresholdSource,
  result: ThresholdResult,
  spread?: Pick<AbstentionSpread, 'splits' | 'heldOutError' | 'exceeded' | 'abstainedOnAll'>,
): ThresholdDocument {
  const bound = result.choice.bound;
  return {
    format: THRESHOLD_FORMAT,
    version: THRESHOLD_VERSION,
    report: { ...source.report },
    model: source.model,
    signal: source.signal,
    target: result.target,
    threshold: result.threshold,
    rule: THRESHOLD_RULE,
    split: { seed: result.seed, selection: result.selection.questions, evaluation: result.evaluation.questions },
    interval: 'wilson-95',
    selection: countsOf(result.selection),
    evaluation: countsOf(result.evaluation),
    guarantee: { delta: result.choice.delta, tried: result.choice.tried, bound: Number.isFinite(bound) ? bound : null },
    ...(spread
      ? { spread: { splits: spread.splits.length, heldOutError: { ...spread.heldOutError }, exceeded: spread.exceeded, abstainedOnAll: spread.abstainedOnAll } }
      : {}),
  };
}

/** Every bit of every number; NaN (an error with nothing answered, an empty interval) is written as null. */
export function thresholdJson(doc: ThresholdDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** The file name of a downloaded threshold: model and signal, filesystem-safe. */
export function thresholdFileName(model: string, signal: SignalName): string {
  const safe = model.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'model';
  return `threshold-${safe}-${signal}.json`;
}
