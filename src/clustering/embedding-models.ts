/**
 * Names and plain types of the embedding models, kept apart from the Transformers.js import so
 * the page can name a model without loading the library (only the worker loads it).
 */
/** A small sentence model; any hub id (or local folder under `localModelPath`) can replace it. */
export const DEFAULT_EMBEDDING_MODEL = 'Xenova/all-MiniLM-L6-v2';
/** The model the repo makes itself (scripts/make-tiny-embedding-model.ts), served from /models/; a test model (model/test-models.ts). */
import { TINY_EMBEDDING_MODEL } from '../model/test-models';
export { TINY_EMBEDDING_MODEL };

/** The models the app ships in public/models/ (served from its own /models/): no download, no hub. */
export const SHIPPED_EMBEDDING_MODELS: readonly string[] = [TINY_EMBEDDING_MODEL];

export function isShippedEmbeddingModel(model: string): boolean {
  return SHIPPED_EMBEDDING_MODELS.includes(model.trim());
}

export interface OfferedEmbeddingModel {
  id: string;
  label: string;
  /**
   * Approximate download in MB of the q8 weights (onnx/model_quantized.onnx, the worker's dtype),
   * from the hub's file listings (shared/research/providers-peers-datasets.md, C.2); the tokenizer
   * and config add well under a MB for the English models. 0: shipped with the app.
   */
  approxMb: number;
}

/** The models the settings step offers by name (any hub id can still be typed); all use mean pooling, as the worker does. */
export const OFFERED_EMBEDDING_MODELS: readonly OfferedEmbeddingModel[] = [
  { id: DEFAULT_EMBEDDING_MODEL, label: 'all-MiniLM-L6-v2 — small, English', approxMb: 23 },
  { id: 'Xenova/gte-small', label: 'gte-small — English', approxMb: 34 },
  { id: 'Xenova/paraphrase-multilingual-MiniLM-L12-v2', label: 'paraphrase-multilingual-MiniLM-L12-v2 — 50+ languages', approxMb: 118 },
  { id: TINY_EMBEDDING_MODEL, label: 'tiny-embedder — shipped with the app, for tests only (its groups mean little)', approxMb: 0 },
];

/** The approximate download of a model in MB: 0 when shipped, null when the table does not know it. */
export function approxDownloadMb(model: string): number | null {
  if (isShippedEmbeddingModel(model)) return 0;
  return OFFERED_EMBEDDING_MODELS.find((m) => m.id === model.trim())?.approxMb ?? null;
}

export type EmbeddingDtype = 'q8' | 'fp32' | 'fp16' | 'q4';
export type EmbeddingDevice = 'wasm' | 'webgpu' | 'cpu';

