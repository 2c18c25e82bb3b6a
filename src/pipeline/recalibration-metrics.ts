/**
 * The metrics every scored signal gets beside its calibration (issue 29): the ranking metrics PRR
 * and AUARC (core/prediction-rejection.ts; AUROC and AURC are in SignalMetrics), and its paper ECE
 * after a recalibration map, isotonic and Platt, cross-fitted on two halves of the questions
 * (core/recalibration.ts) with the split the report's bootstrap seed names, each with the headline
 * interval and calibration test (core/ece-inference.ts) on the recalibrated confidences.
 *
 * Signals that are probabilities keep their raw ECE in SignalMetrics, so raw and recalibrated sit
 * side by side; for a confidence form (not a probability) only the recalibrated ECE means anything.
 * Platt's map is σ(a·c + b) on the stored confidence c as it is (not on its logit). The interval is
 * conditional on the cross-fitted confidences, which depend on the other half's outcomes: it
 * describes calibration given the fitted maps, not the maps' own variability.
 */
import { eceInference, ECE_INFERENCE_METHOD } from '../core/ece-inference';
import { auarc, predictionRejection } from '../core/prediction-rejection';
import { ascendingOrder, hasNaN } from '../core/ranking';
import { crossFittedRecalibration, type RecalibrationMethod } from '../core/recalibration';
import type { RecalibratedEceEntry, RecalibrationMetrics, RejectionEntry } from '../model/report';
import type { SignalName } from '../model/signals';

type Columns = Partial<Record<SignalName, ArrayLike<number>>>;

/** PRR and AUARC of each column (one sort of each, shared by the two). */
export function rejectionMetrics(columns: Columns, y: ArrayLike<number>): Partial<Record<SignalName, RejectionEntry>> {
  const out: Partial<Record<SignalName, RejectionEntry>> = {};
  for (const [name, conf] of Object.entries(columns) as [SignalName, ArrayLike<number>][]) {
    const n = Math.min(conf.length, y.length);
    const order = n > 0 && !hasNaN(conf, n) ? ascendingOrder(conf, n) : undefined;
    out[name] = { prr: predictionRejection(conf, y, { order }).prr, auarc: auarc(conf, y, order) };
  }
  return out;
}

const METHODS: RecalibrationMethod[] = ['isotonic', 'platt'];

/** Each column's ECE after each cross-fitted map, with its interval and test (`bins`, `seed`: the report's). */
export function recalibrationMetrics(columns: Columns, y: ArrayLike<number>, settings: { bins: number; seed: number }): RecalibrationMetrics {
  return recalibrationWithColumns(columns, y, settings).metrics;
}

/**
 * recalibrationMetrics and each column's cross-fitted isotonic confidences, which the score stage
 * compares across signals (signal-comparison.ts compareRecalibratedSignals) without fitting the
 * maps a second time.
 */
export function recalibrationWithColumns(
  columns: Columns,
  y: ArrayLike<number>,
  settings: { bins: number; seed: number },
): { metrics: RecalibrationMetrics; isotonic: Partial<Record<SignalName, Float64Array>> } {
  const out: RecalibrationMetrics = { seed: settings.seed, method: ECE_INFERENCE_METHOD, isotonic: {}, platt: {} };
  const isotonic: Partial<Record<SignalName, Float64Array>> = {};
  for (const [name, conf] of Object.entries(columns) as [SignalName, ArrayLike<number>][]) {
    for (const method of METHODS) {
      const recalibrated = crossFittedRecalibration(conf, y, { method, seed: settings.seed });
      const inf = eceInference(recalibrated.confidence, y, { bins: settings.bins, seed: settings.seed });
      const entry: RecalibratedEceEntry = { ece: inf.ece, interval: [inf.interval[0], inf.interval[1]], p: inf.p };
      out[method][name] = entry;
      if (method === 'isotonic') isotonic[name] = recalibrated.confidence;
    }
  }
  return { metrics: out, isotonic };
}
