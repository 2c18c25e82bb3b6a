/**
 * Names and plain facts of the NLI models the entailment clusterer can use, kept apart from the
 * Transformers.js import so the page can name a model without loading the library (only the
 * NLI worker and Node load it).
 */
/** The smallest curated MNLI model: DeBERTa-v3 xsmall cross-encoder. Any hub id can replace it. */
export const DEFAULT_NLI_MODEL = 'Xenova/nli-deberta-v3-xsmall';
/** The classifier the repo makes itself (scripts/make-tiny-nli-model.ts), served from /models/; a test model (model/test-models.ts). */
import { TINY_NLI_MODEL } from '../model/test-models';
export { TINY_NLI_MODEL };

/** The NLI models the app ships in public/models/ (served from its own /models/): no download, no hub. */
export const SHIPPED_NLI_MODELS: readonly string[] = [TINY_NLI_MODEL];

export function isShippedNliModel(model: string): boolean {
  return SHIPPED_NLI_MODELS.includes(model.trim());
}

export interface OfferedNliModel {
  id: string;
  label: string;
  /**
   * Approximate download in MB of the q8 weights (onnx/model_quantized.onnx, the dtype the worker
   * and the CLI load) plus tokenizer.json, from the hub's file listings; 0: shipped with the app.
   */
  approxMb: number;
}

/**
 * The models the settings step and `semece cluster --help` offer by name. All are MNLI-style
 * sequence classifiers with Transformers.js ONNX weights whose labels name entailment, neutral
 * and contradiction (in different orders and cases: the clusterer reads the names, never the index).
 */
export const OFFERED_NLI_MODELS: readonly OfferedNliModel[] = [
  { id: DEFAULT_NLI_MODEL, label: 'nli-deberta-v3-xsmall — small cross-encoder (SNLI + MNLI), English', approxMb: 96 },
  { id: 'Xenova/distilbert-base-uncased-mnli', label: 'distilbert-base-uncased-mnli — English', approxMb: 68 },
  { id: 'Xenova/nli-deberta-v3-small', label: 'nli-deberta-v3-small — English', approxMb: 181 },
  { id: 'Xenova/nli-deberta-v3-base', label: 'nli-deberta-v3-base — English', approxMb: 253 },
  { id: 'Xenova/deberta-large-mnli-zero-cls', label: 'DeBERTa-large MNLI — the model size Kuhn et al. used; large download', approxMb: 415 },
  { id: TINY_NLI_MODEL, label: 'tiny-nli — shipped with the app, for tests only (it compares synonym groups)', approxMb: 0 },
];

/** The approximate download of a model in MB: 0 when shipped, null when the table does not know it. */
export function approxNliDownloadMb(model: string): number | null {
  if (isShippedNliModel(model)) return 0;
  return OFFERED_NLI_MODELS.find((m) => m.id === model.trim())?.approxMb ?? null;
}
