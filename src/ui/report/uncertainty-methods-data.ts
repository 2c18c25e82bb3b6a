/**
 * The Uncertainty methods view as data: per model, a row per scored signal with what the paper's
 * claim is read from — its raw ECE and interval where the signal is a probability, its ECE after
 * cross-fitted isotonic and Platt maps with their intervals, and its ranking metrics (AUROC, PRR,
 * AUARC). Numbers are the document's, unrounded; the view rounds them as every table does.
 */
import { eceIntervalOf, headlineSignals, recalibratedOf } from '../../formats/headline-table';
import type { ModelReport, RecalibratedEceEntry } from '../../model/report';
import { isProbabilitySignal, signalInfo, type SignalName } from '../../model/signals';

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
  /** How the signals that can be read more than one way were read for this model (graph similarity, p(True)), in words. */
  notes: string[];
}

/**
 * What the table's rows were computed from, where a signal has more than one way: the graph
 * signals' similarity (the report's graphSimilarity) and how each question's p(True) was read
 * (its p_true_method field).
 */
export function uncertaintyMethodNotes(m: ModelReport, signals: readonly SignalName[]): string[] {
  const notes: string[] = [];
  if (signals.some((s) => signalInfo(s).preferredInput === 'similarity')) {
    notes.push(
      m.graphSimilarity === 'embedding-cosine'
        ? "EigV, Deg and Ecc are computed over the embedding model's cosine similarities between the answers (clipped to [0, 1])."
        : m.graphSimilarity === 'entailment-probability'
          ? "EigV, Deg and Ecc are computed over the NLI model's entailment probabilities between the answers (the mean of the two directions)."
          : "EigV, Deg and Ecc are computed over the clustering's partition (1 for two answers in one class, else 0): no answer similarities were recorded for every question.",
    );
  }
  if (signals.includes('p_true')) {
    let logprobs = 0;
    let sampled = 0;
    for (const q of m.questions) {
      const how = q.fields?.p_true_method;
      if (how === 'logprobs') logprobs += 1;
      else if (how === 'sampled') sampled += 1;
    }
    const on = (k: number) => `${k} question${k === 1 ? '' : 's'}`;
    const parts = [logprobs > 0 ? `from the verdict token's log-probabilities on ${on(logprobs)}` : '', sampled > 0 ? `from the share of sampled "True" verdicts on ${on(sampled)}` : ''].filter(Boolean);
    if (parts.length > 0) notes.push(`p(True) was read ${parts.join(' and ')}.`);
  }
  return notes;
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
      notes: uncertaintyMethodNotes(m, signals.filter((s) => m.metrics.signals[s])),
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
