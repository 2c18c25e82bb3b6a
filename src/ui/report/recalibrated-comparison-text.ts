/**
 * The signal comparison after recalibration (ModelMetrics.recalibratedComparison) in words, for
 * the paragraph under a model's Uncertainty methods table: the raw comparison's wording
 * (summarizeComparison) with "calibrated" qualified by the map, the number of one-sided tests and
 * their level when none is named (the named headline says both), and the runner-up's gap with its
 * paired interval. Kept out of signal-comparison-summary.ts so the report's first page, which
 * loads that module, does not carry it: the Uncertainty methods tab is loaded when first opened.
 */
import { recalibratedOf } from '../../formats/headline-table';
import type { ModelReport, SignalName } from '../../model/report';
import { SIGNAL_LABEL } from '../../model/signals';
import { summarizeComparison } from '../../pipeline/signal-comparison-summary';

export interface RecalibratedComparisonText {
  /** The paragraph. */
  text: string;
  /** The signal named best after recalibration; null when none is named. */
  named: SignalName | null;
  /** Signals left out, with why. */
  notes: string[];
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');
const pct = (x: number) => `${+(100 * x).toFixed(2)}%`;

/** Null for a model whose report holds no comparison after recalibration (saved before it, or scored without the view's extras). */
export function recalibratedComparisonText(m: ModelReport): RecalibratedComparisonText | null {
  const c = m.metrics.recalibratedComparison;
  if (!c) return null;
  // Over the report's questions, the best signal's ECE carries the table's interval (the headline method on the recalibrated confidences).
  const one = c.rows === m.metrics.questions ? (s: SignalName) => recalibratedOf(m.metrics, 'isotonic', s)?.interval ?? null : undefined;
  const summary = summarizeComparison(c, SIGNAL_LABEL, one, ' after the cross-fitted isotonic map');
  const sel = c.selection;
  const named = c.best && sel?.named ? c.best : null;
  const parts = [summary.headline];
  if (sel && !sel.named && sel.comparisons > 0) {
    const k = sel.comparisons;
    parts.push(`A signal is named only when all ${k} one-sided ${k === 1 ? 'test' : 'tests'} against it reject, each at ${pct(sel.perComparison)}.`);
    if (c.runnerUp && c.byHowMuch) {
      const d = c.byHowMuch;
      parts.push(`The runner-up, ${SIGNAL_LABEL[c.runnerUp]}, is ${f3(d[0])} higher [${f3(d[1])}, ${f3(d[2])}] (paired bootstrap).`);
    }
  }
  return { text: parts.join(' '), named, notes: summary.notes };
}
