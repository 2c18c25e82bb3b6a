/**
 * A model's metrics with its ECE inference (ece-inference-metrics.ts) put in: the report's and
 * each regime's. Types only, so a page can merge without loading the statistics.
 */
import type { Regime } from '../core/types';
import type { ConsistencyBandEntry, EceInferenceEntry, ModelMetrics, SignalName } from '../model/report';

/** What ece-inference-metrics.ts computes for one model. */
export interface EceInferenceMetrics {
  eceInference: Partial<Record<SignalName, EceInferenceEntry>>;
  eceInferenceMethod: string;
  /** Absent when not asked for (a caller whose output draws no reliability diagram). */
  consistencyBands?: Partial<Record<SignalName, ConsistencyBandEntry[]>>;
  /** Per regime, when asked for (`regimes`). */
  byRegime?: Record<Regime, Partial<Record<SignalName, EceInferenceEntry>>>;
}

const REGIMES: Regime[] = ['jensen', 'low-margin', 'large-margin'];

/** Metrics with the inference put in (each regime's beside its ECE). The input is not modified. */
export function withEceInference(metrics: ModelMetrics, inf: EceInferenceMetrics): ModelMetrics {
  const byRegime = { ...metrics.byRegime };
  if (inf.byRegime) {
    for (const r of REGIMES) byRegime[r] = { ...byRegime[r], eceInference: inf.byRegime[r] };
  }
  const out: ModelMetrics = { ...metrics, eceInference: inf.eceInference, eceInferenceMethod: inf.eceInferenceMethod, byRegime };
  if (inf.consistencyBands) out.consistencyBands = inf.consistencyBands;
  return out;
}
