/**
 * A report saved before scoring stored each ECE's interval (metrics.eceInference) is given it when
 * shown: computed from the report's own rows with its settings (workers/recompute-client.ts, in the
 * worker), one model at a time, so every ECE on the page, its regimes and its exports carry the
 * one interval of the one method. Until then the table says the interval is being computed.
 */
import type { ReportDocument } from '../../model/report';
import type { EceInferenceMetrics } from '../../pipeline/ece-inference-metrics';

/** Whether a model of `doc` still lacks its ECE interval (it is being computed while the report is shown). */
export function lacksInference(doc: ReportDocument): boolean {
  return doc.models.some(needsInference);
}

function needsInference(m: ReportDocument['models'][number]): boolean {
  return !m.metrics.eceInference && m.questions.length > 0;
}

/**
 * Computes the first model of `doc` that lacks the interval and hands it to `apply` with the rows
 * it was computed from (the caller drops it when those rows were replaced meanwhile, e.g. by a
 * grade override, whose recompute brings its own). Returns a cancel function.
 */
export function fillMissingInference(
  doc: ReportDocument,
  apply: (modelIndex: number, questions: ReportDocument['models'][number]['questions'], inference: EceInferenceMetrics) => void,
  onError: (message: string) => void,
): () => void {
  const i = doc.models.findIndex(needsInference);
  if (i < 0) return () => undefined;
  let live = true;
  const model = doc.models[i];
  // The recompute worker's client is loaded only here, for a report saved before its intervals were stored.
  void import('../../workers/recompute-client').then(({ inferModelEce }) => inferModelEce(model, doc.settings)).then((r) => {
    if (!live) return;
    if (r.ok) apply(i, model.questions, r.value);
    else onError(r.error.message);
  });
  return () => {
    live = false;
  };
}
