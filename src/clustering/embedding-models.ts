/**
 * Names and plain types of the embedding models, kept apart from the Transformers.js import so
 * the page can name a model without loading the library (only the worker loads it).
 */
/** A small sentence model; any hub id (or local folder under `localModelPath`) can replace it. */
export const DEFAULT_EMBEDDING_MODEL = 'Xenova/all-MiniLM-L6-v2';
/** The model the repo makes itself (scripts/make-tiny-embedding-model.ts), served from /models/. */
export const TINY_EMBEDDING_MODEL = 'tiny-embedder';

export type EmbeddingDtype = 'q8' | 'fp32' | 'fp16' | 'q4';
export type EmbeddingDevice = 'wasm' | 'webgpu' | 'cpu';

/** Model download/load progress, as plain data (it crosses the worker boundary). */
export interface ModelProgress {
  status: string;
  file?: string;
  /** 0–100 */
  progress?: number;
  loaded?: number;
  total?: number;
}

