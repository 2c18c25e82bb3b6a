/**
 * A model's rows packed into typed arrays for the recompute worker: only the fields the score
 * stage's `modelMetrics` reads, as transferable buffers, so handing 40,000 rows to the worker
 * costs a few milliseconds instead of a structured clone of every row object. The page packs
 * (recompute-client.ts); the worker unpacks (recompute-api.ts's unpackRows, kept there because it
 * needs the core's estimators, which this module would carry into the first page's JavaScript).
 */
import type { Regime } from '../core/types';
import type { ReportQuestion, SignalName } from '../model/report';
import { SIGNAL_NAMES, signalValue } from '../model/signals';

/** A row's regime as its index here. */
export const REGIME_CODES: readonly Regime[] = ['jensen', 'low-margin', 'large-margin'];

export interface PackedRows {
  sem1: Float64Array;
  sem2: Float64Array;
  verbalized: Float64Array;
  correct: Uint8Array;
  margin: Float64Array;
  n: Float64Array;
  nClasses: Float64Array;
  regime: Uint8Array;
  /** Signals other than the paper's three, by name. */
  extra: Partial<Record<SignalName, Float64Array>>;
}

/**
 * One plain pass over the rows: Float64Array.from with a callback per field took some 85 ms for
 * 40,000 rows on the page's main thread (a grade override's task), this a few.
 */
export function packRows(questions: readonly ReportQuestion[], signals: readonly SignalName[]): PackedRows {
  const count = questions.length;
  const others = signals.filter((s) => s !== 'sem1' && s !== 'sem2' && s !== 'verbalized');
  const extraColumns = others.map(() => new Float64Array(count));
  const p: PackedRows = {
    sem1: new Float64Array(count),
    sem2: new Float64Array(count),
    verbalized: new Float64Array(count),
    correct: new Uint8Array(count),
    margin: new Float64Array(count),
    n: new Float64Array(count),
    nClasses: new Float64Array(count),
    regime: new Uint8Array(count),
    extra: Object.fromEntries(others.map((s, k) => [s, extraColumns[k]])),
  };
  for (let i = 0; i < count; i++) {
    const q = questions[i];
    p.sem1[i] = q.sem1;
    p.sem2[i] = q.sem2;
    p.verbalized[i] = q.verbalized;
    p.correct[i] = q.correct;
    p.margin[i] = q.margin;
    p.n[i] = q.n;
    p.nClasses[i] = q.nClasses;
    p.regime[i] = REGIME_CODES.indexOf(q.regime);
    for (let k = 0; k < others.length; k++) extraColumns[k][i] = q.signals?.[others[k]] ?? NaN;
  }
  return p;
}

/** Every buffer of a packing, for postMessage's transfer list. */
export function transferables(p: PackedRows): ArrayBuffer[] {
  return [p.sem1, p.sem2, p.verbalized, p.correct, p.margin, p.n, p.nClasses, p.regime, ...Object.values(p.extra)].map((a) => a!.buffer as ArrayBuffer);
}

/**
 * model/signals.ts's signalColumns and the grades, for the signal comparison in the worker, in
 * one plain pass: Float64Array.from with a callback per signal took some 130 ms for 27,000 rows
 * on the page's main thread, this a few.
 */
export function packComparison(questions: readonly ReportQuestion[]): { columns: Partial<Record<SignalName, Float64Array>>; correct: Uint8Array } {
  const n = questions.length;
  const all = SIGNAL_NAMES.map(() => new Float64Array(n));
  const finite = SIGNAL_NAMES.map(() => false);
  const correct = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const q = questions[i];
    correct[i] = q.correct;
    for (let k = 0; k < all.length; k++) {
      all[k][i] = signalValue(q, SIGNAL_NAMES[k]);
      // The stored value, as signalColumns tests it.
      if (!finite[k] && Number.isFinite(all[k][i])) finite[k] = true;
    }
  }
  const columns: Partial<Record<SignalName, Float64Array>> = {};
  SIGNAL_NAMES.forEach((name, k) => {
    if (finite[k]) columns[name] = all[k];
  });
  return { columns, correct };
}
