/**
 * The Uncertainty methods view as data: per model, a row per scored signal with what the paper's
 * claim is read from — its raw ECE and interval where the signal is a probability, its ECE after
 * cross-fitted isotonic and Platt maps with their intervals, and its ranking metrics (AUROC, PRR,
 * AUARC). Numbers are the document's, unrounded; the view rounds them as every table does.
 */
import { eceIntervalOf, headlineSignals, recalibratedOf } from '../../formats/headline-table';
import type { ModelReport, RecalibratedEceEntry } from '../../model/report';
import { isProbabilitySignal, type SignalName } from '../../model/signals';

export interface UncertaintyMethodRow {
  signal: SignalName;
  probability: boolean;
  /** Raw paper ECE and its one interval; null for a signal that is not a probability (it claims nothing). */
  raw: { ece: number; interval: [number, number] | null } | null;
  isotonic: RecalibratedEceEntry | null;
  platt: RecalibratedEceEntry | null;
  auroc: number | null;
  prr: number | null;
  auarc: number | null;
}

export interface UncertaintyMethodsTable {
  model: string;
  /** The recalibration maps' split seed and interval method (null when the model holds none). */
  seed: number | null;
  method: string | null;
  rows: UncertaintyMethodRow[];
}

/** Whether a report holds what the view shows: some model's recalibration or rejection metrics (version 3 on). */
export function hasUncertaintyMethods(models: readonly ModelReport[]): boolean {
  return models.some((m) => m.metrics.recalibration || m.metrics.rejection);
}

const finite = (x: number | undefined): number | null => (x !== undefined && Number.isFinite(x) ? x : null);

/** One table per model that has the metrics; a row per signal the model scored, in the shared order. */
export function uncertaintyMethodsTables(models: readonly ModelReport[]): UncertaintyMethodsTable[] {
  const signals = headlineSignals(models);
  return models
    .filter((m) => m.metrics.recalibration || m.metrics.rejection)
    .map((m) => ({
      model: m.model,
      seed: m.metrics.recalibration?.seed ?? null,
      method: m.metrics.recalibration?.method ?? null,
      rows: signals
        .filter((s) => m.metrics.signals[s])
        .map((s): UncertaintyMethodRow => {
          const sm = m.metrics.signals[s]!;
          const probability = isProbabilitySignal(s);
          return {
            signal: s,
            probability,
            raw: probability ? { ece: sm.ece, interval: eceIntervalOf(m.metrics, s) } : null,
            isotonic: recalibratedOf(m.metrics, 'isotonic', s),
            platt: recalibratedOf(m.metrics, 'platt', s),
            auroc: finite(sm.auroc),
            prr: finite(m.metrics.rejection?.[s]?.prr),
            auarc: finite(m.metrics.rejection?.[s]?.auarc),
          };
        }),
    }));
}
