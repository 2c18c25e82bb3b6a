/**
 * The abstention threshold of each scored signal, chosen once when the report is scored
 * (core/abstention.ts: Clopper–Pearson bound, Bonferroni over the thresholds tried, held-out
 * evaluation) at the selective-prediction view's default target and split seed, with its spread
 * over ABSTENTION_SPLITS seeded splits. The view reads it instead of recomputing it; another
 * target or seed chosen there is computed from the same columns (`abstentionColumns`).
 */
import { abstentionSpread, ABSTENTION_DELTA, ABSTENTION_SPLITS, type AbstentionResult, type AbstentionSpread, abstention, descendingOrder } from '../core/abstention';
import type { ReportQuestion, StoredAbstention, StoredAbstentionEntry } from '../model/report';
import { signalValue, type SignalName } from '../model/signals';

/** The view's defaults: a 10% target error, split seed 0. */
export const DEFAULT_ABSTENTION = { target: 0.1, seed: 0 } as const;

export interface AbstentionColumns {
  conf: Float64Array;
  y: Float64Array;
  /** 1 where the model's own reply was graded NOT_ATTEMPTED. */
  declined: Uint8Array;
}

/** A model's questions as the columns its metrics were scored from (signalValue, Y from `correct`). */
export function abstentionColumns(questions: readonly Pick<ReportQuestion, 'correct' | 'grade' | 'sem1' | 'sem2' | 'verbalized' | 'signals' | 'entropy'>[], signal: SignalName): AbstentionColumns {
  return {
    conf: Float64Array.from(questions, (q) => signalValue(q, signal)),
    y: Float64Array.from(questions, (q) => q.correct),
    declined: Uint8Array.from(questions, (q) => (q.grade === 'NOT_ATTEMPTED' ? 1 : 0)),
  };
}

/** One signal's threshold at (target, seed) and the spread over the splits seed, seed + 1, …. */
export function abstentionEntry(cols: AbstentionColumns, target: number, seed: number): { result: AbstentionResult; spread: AbstentionSpread } {
  // One sort of the rows serves the threshold and all the spread's splits (a NaN confidence stops
  // abstention() before it would sort, so none is made then).
  const order = cols.conf.every(Number.isFinite) ? descendingOrder(cols.conf) : undefined;
  const result = abstention(cols.conf, cols.y, { target, seed, declined: cols.declined, order });
  return { result, spread: abstentionSpread(cols.conf, cols.y, { target, seed, order }) };
}

/** What the document keeps of an entry: no candidate list (the view does not show it). */
export function storedEntry({ result, spread }: { result: AbstentionResult; spread: AbstentionSpread }): StoredAbstentionEntry {
  const { candidates: _, ...choice } = result.choice;
  return {
    threshold: result.threshold,
    ...(result.reason ? { reason: result.reason } : {}),
    choice,
    selection: result.selection,
    evaluation: result.evaluation,
    spread: { splits: spread.splits, heldOutError: spread.heldOutError, exceeded: spread.exceeded, abstainedOnAll: spread.abstainedOnAll },
  };
}

/** Every scored signal's entry at the view's defaults. */
export function abstentionMetrics(questions: readonly ReportQuestion[], signals: readonly SignalName[]): StoredAbstention {
  const { target, seed } = DEFAULT_ABSTENTION;
  const bySignal: StoredAbstention['bySignal'] = {};
  // Y and the declines are the same columns for every signal: made once, the confidences per signal.
  const shared = signals.length > 0 ? abstentionColumns(questions, signals[0]) : null;
  for (const s of signals) {
    const cols = s === signals[0] ? shared! : { ...shared!, conf: Float64Array.from(questions, (q) => signalValue(q, s)) };
    bySignal[s] = storedEntry(abstentionEntry(cols, target, seed));
  }
  return { target, seed, delta: ABSTENTION_DELTA, splits: ABSTENTION_SPLITS, bySignal };
}
