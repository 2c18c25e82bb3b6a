/**
 * A model's rows packed into typed arrays for the recompute worker: only the fields the score
 * stage's `modelMetrics` reads, as transferable buffers, so handing 40,000 rows to the worker
 * costs a few milliseconds instead of a structured clone of every row object.
 */
import type { Regime } from '../../core/types';
import type { ReportQuestion, SignalName } from '../../model/report';
import { SIGNAL_NAMES, signalValue } from '../../model/signals';

const REGIME_CODES: Regime[] = ['jensen', 'low-margin', 'large-margin'];

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

export function packRows(questions: readonly ReportQuestion[], signals: readonly SignalName[]): PackedRows {
  const extra: PackedRows['extra'] = {};
  for (const s of signals) {
    if (s !== 'sem1' && s !== 'sem2' && s !== 'verbalized') extra[s] = Float64Array.from(questions, (q) => q.signals?.[s] ?? NaN);
  }
  return {
    sem1: Float64Array.from(questions, (q) => q.sem1),
    sem2: Float64Array.from(questions, (q) => q.sem2),
    verbalized: Float64Array.from(questions, (q) => q.verbalized),
    correct: Uint8Array.from(questions, (q) => q.correct),
    margin: Float64Array.from(questions, (q) => q.margin),
    n: Float64Array.from(questions, (q) => q.n),
    nClasses: Float64Array.from(questions, (q) => q.nClasses),
    regime: Uint8Array.from(questions, (q) => REGIME_CODES.indexOf(q.regime)),
    extra,
  };
}

/** Row objects with just the fields modelMetrics reads (text fields empty). */
export function unpackRows(p: PackedRows): ReportQuestion[] {
  const rows: ReportQuestion[] = new Array(p.sem1.length);
  const extraNames = Object.keys(p.extra) as SignalName[];
  for (let i = 0; i < rows.length; i++) {
    const row: ReportQuestion = {
      id: '', question: '', gold: '', modalLabel: '', grade: p.correct[i] ? 'CORRECT' : 'INCORRECT',
      n: p.n[i], sem1: p.sem1[i], sem2: p.sem2[i], verbalized: p.verbalized[i], correct: p.correct[i] as 0 | 1,
      margin: p.margin[i], stdMargin: Math.sqrt(p.n[i]) * p.margin[i], regime: REGIME_CODES[p.regime[i]], entropy: NaN, nClasses: p.nClasses[i],
    };
    if (extraNames.length) row.signals = Object.fromEntries(extraNames.map((s) => [s, p.extra[s]![i]]));
    rows[i] = row;
  }
  return rows;
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
