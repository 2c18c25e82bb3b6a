/**
 * The report's inference about each signal's paper ECE, from core/ece-inference.ts: the one 95%
 * interval every view, export and `semece score` shows beside an ECE, the p-value of the test of
 * perfect calibration, the same per margin regime (the regime's own questions), and the
 * consistency bands the reliability diagram draws. Scoring stores them (score.ts); a report made
 * before they existed gets them computed from its rows when opened (the recompute worker), so
 * every ECE on the page carries an interval of this one method.
 *
 * Settings: the report's bins and its bootstrap seed; the method's own draws and level (2000,
 * 95%: the setting whose coverage core/ece-inference.ts measured), so `eceInferenceMethod`, the
 * bins and the seed say how to reproduce them.
 */
import { consistencyBands, eceInferenceBySignal } from '../core/ece-inference';
import type { Regime } from '../core/types';
import type { ConsistencyBandEntry, EceInferenceEntry, ModelMetrics, ReportQuestion, SignalName } from '../model/report';
import { signalValue } from '../model/signals';

// The merge (and the shape it merges) is its own module, so the page that shows a report does not load the statistics with it.
import type { EceInferenceMetrics } from './ece-inference-merge';
export { withEceInference, type EceInferenceMetrics } from './ece-inference-merge';

export interface InferenceSettings {
  bins: number;
  seed: number;
  /** Compute the consistency bands (default true; only the reliability diagram draws them). */
  bands?: boolean;
}


const REGIMES: Regime[] = ['jensen', 'low-margin', 'large-margin'];

/** Interval and p-value of each column's ECE against `y`, and the method's name (empty with no column). */
function inferAll(columns: Record<string, ArrayLike<number>>, y: ArrayLike<number>, s: InferenceSettings) {
  const out = eceInferenceBySignal(columns, y, { bins: s.bins, seed: s.seed });
  const entries: Partial<Record<SignalName, EceInferenceEntry>> = {};
  let method = '';
  for (const [name, r] of Object.entries(out)) {
    entries[name as SignalName] = { interval: [r.interval[0], r.interval[1]], p: r.p };
    method ||= r.method;
  }
  return { entries, method };
}

/** One margin regime's rows: its signal columns and outcomes, gathered from the whole set's. */
export interface RegimeColumns {
  columns: Record<string, ArrayLike<number>>;
  y: ArrayLike<number>;
}

/** Each row's value at the given row indices (a plain loop: Float64Array.from with a map function iterates, several times slower). */
export function gatherRows(values: ArrayLike<number>, rows: ArrayLike<number>): Float64Array {
  const out = new Float64Array(rows.length);
  for (let j = 0; j < rows.length; j++) out[j] = values[rows[j]];
  return out;
}

/** Row indices of each margin regime, in row order. */
export function rowsByRegime(regime: readonly Regime[]): Record<Regime, Int32Array> {
  const out = {} as Record<Regime, Int32Array>;
  for (const r of REGIMES) {
    let count = 0;
    for (let i = 0; i < regime.length; i++) if (regime[i] === r) count++;
    const rows = new Int32Array(count);
    for (let i = 0, j = 0; i < regime.length; i++) if (regime[i] === r) rows[j++] = i;
    out[r] = rows;
  }
  return out;
}

/** Each regime's columns and outcomes (what the regimes' ECEs and their inference read). */
export function regimeColumns(columns: Record<string, ArrayLike<number>>, y: ArrayLike<number>, regime: readonly Regime[]): Record<Regime, RegimeColumns> {
  const rows = rowsByRegime(regime);
  const out = {} as Record<Regime, RegimeColumns>;
  for (const r of REGIMES) {
    const sub: Record<string, ArrayLike<number>> = {};
    for (const name of Object.keys(columns)) sub[name] = gatherRows(columns[name], rows[r]);
    out[r] = { columns: sub, y: gatherRows(y, rows[r]) };
  }
  return out;
}

/**
 * Inference for these signal columns (each as long as `y`, 0/1); with `regime` (one per row, or
 * each regime's columns already gathered by `regimeColumns`) the same per margin regime over the
 * regime's own rows.
 */
export function eceInferenceMetrics(
  conf: Partial<Record<SignalName, ArrayLike<number>>>,
  y: ArrayLike<number>,
  settings: InferenceSettings,
  regime?: readonly Regime[] | Record<Regime, RegimeColumns>,
): EceInferenceMetrics {
  const columns = conf as Record<string, ArrayLike<number>>;
  const whole = inferAll(columns, y, settings);
  const out: EceInferenceMetrics = { eceInference: whole.entries, eceInferenceMethod: whole.method };
  if (settings.bands !== false) {
    const bands: Partial<Record<SignalName, ConsistencyBandEntry[]>> = {};
    for (const [name, c] of Object.entries(columns)) {
      bands[name as SignalName] = consistencyBands(c, { bins: settings.bins }).map((b) => ({ bin: b.bin, count: b.count, lo: b.lo, hi: b.hi }));
    }
    out.consistencyBands = bands;
  }
  if (regime) {
    const byRegime = Array.isArray(regime) ? regimeColumns(columns, y, regime as readonly Regime[]) : (regime as Record<Regime, RegimeColumns>);
    out.byRegime = {} as EceInferenceMetrics['byRegime'] & object;
    for (const r of REGIMES) out.byRegime[r] = inferAll(byRegime[r].columns, byRegime[r].y, settings).entries;
  }
  return out;
}

/** The same from a model's report rows (a report made before the inference was stored). */
export function eceInferenceOfRows(questions: readonly ReportQuestion[], signals: readonly SignalName[], settings: InferenceSettings): EceInferenceMetrics {
  const conf: Partial<Record<SignalName, Float64Array>> = {};
  for (const s of signals) conf[s] = Float64Array.from(questions, (q) => signalValue(q, s));
  return eceInferenceMetrics(conf, Float64Array.from(questions, (q) => q.correct), settings, questions.map((q) => q.regime));
}
