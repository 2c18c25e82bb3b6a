/**
 * Sentence vectors from Transformers.js 'feature-extraction' (mean pooling, L2-normalized),
 * shared by the browser's embedding worker and by Node (CLI, tests, benchmarks). Transformers.js
 * keeps its settings in one global `env`, so every load sets all of them explicitly: whether the
 * hub may be asked, where local models live, where ONNX Runtime's WASM files are served from.
 */
import { env, pipeline, type FeatureExtractionPipeline, type ProgressInfo } from '@huggingface/transformers';
import type { Embedder } from './embedding';
import type { EmbeddingDevice, EmbeddingDtype, ModelProgress } from './embedding-models';

export { DEFAULT_EMBEDDING_MODEL, TINY_EMBEDDING_MODEL, type EmbeddingDtype, type EmbeddingDevice, type ModelProgress } from './embedding-models';

export interface ModelSource {
  model: string;
  /** Default q8 (model_quantized.onnx). */
  dtype?: EmbeddingDtype;
  device?: EmbeddingDevice;
  pooling?: 'mean' | 'cls';
  /** Ask the Hugging Face hub for files not found locally (default false: tests never do). */
  allowRemoteModels?: boolean;
  /** Folder or URL that holds `<model id>/config.json` …; null: do not look locally. */
  localModelPath?: string | null;
  /** ONNX Runtime WASM files, served by the app itself (browser only). */
  wasmPaths?: string | { wasm: string; mjs?: string };
}

export function applyEnv(source: ModelSource): void {
  env.allowRemoteModels = source.allowRemoteModels ?? false;
  env.allowLocalModels = source.localModelPath !== null;
  // Downloaded files stay in the browser's Cache API ('transformers-cache'), so a model is fetched
  // once, not per run. Node has no Cache API (the CLI uses Transformers.js's file cache instead).
  env.useBrowserCache = typeof caches !== 'undefined';
  if (source.localModelPath) env.localModelPath = source.localModelPath;
  const wasm = env.backends.onnx?.wasm;
  if (source.wasmPaths && wasm) wasm.wasmPaths = source.wasmPaths;
}

export function toProgress(p: ProgressInfo): ModelProgress {
  const out: ModelProgress = { status: p.status };
  if ('file' in p) out.file = p.file;
  if ('progress' in p) out.progress = p.progress;
  if ('loaded' in p) out.loaded = p.loaded;
  if ('total' in p) out.total = p.total;
  return out;
}

export async function loadFeatureExtractor(source: ModelSource, onProgress?: (p: ModelProgress) => void): Promise<FeatureExtractionPipeline> {
  applyEnv(source);
  return pipeline('feature-extraction', source.model, {
    dtype: source.dtype ?? 'q8',
    ...(source.device ? { device: source.device } : {}),
    ...(onProgress ? { progress_callback: (p: ProgressInfo) => onProgress(toProgress(p)) } : {}),
  });
}

/** One Float32Array per text (own buffers, so they can be transferred). */
export async function embedTexts(extractor: FeatureExtractionPipeline, texts: string[], pooling: 'mean' | 'cls' = 'mean', batchSize = 32): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += batchSize) {
    const batch = texts.slice(start, start + batchSize);
    const tensor = await extractor(batch, { pooling, normalize: true });
    const data = tensor.data as Float32Array;
    const width = tensor.dims[tensor.dims.length - 1];
    for (let i = 0; i < batch.length; i++) out.push(data.slice(i * width, (i + 1) * width));
  }
  return out;
}

/**
 * An Embedder over Transformers.js: the model is created once, on first use, and the promise is
 * cached so concurrent first calls share one load; a failed load is forgotten so a later call can
 * try again (e.g. after the user allows remote models).
 */
export function createTransformersEmbedder(source: ModelSource, onProgress?: (p: ModelProgress) => void): Embedder & { ready(): Promise<FeatureExtractionPipeline> } {
  let loading: Promise<FeatureExtractionPipeline> | undefined;
  const ready = () => {
    loading ??= loadFeatureExtractor(source, onProgress).catch((err) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
  return {
    model: source.model,
    ready,
    async embed(texts, signal) {
      const extractor = await ready();
      if (signal?.aborted) throw new DOMException('embedding was cancelled', 'AbortError');
      return embedTexts(extractor, texts, source.pooling ?? 'mean');
    },
  };
}

/**
 * Whether vectors from a trusted backend (WASM) and a candidate (WebGPU) agree: every probe
 * text's pair must have cosine above `min`. Both sides are L2-normalized, so the dot product is
 * the cosine.
 */
export function vectorsAgree(reference: Float32Array[], candidate: Float32Array[], min = 0.99): { agree: boolean; worst: number } {
  let worst = reference.length === candidate.length && reference.length > 0 ? 1 : -1;
  for (let i = 0; i < Math.min(reference.length, candidate.length); i++) {
    let dot = 0;
    for (let d = 0; d < reference[i].length; d++) dot += reference[i][d] * (candidate[i][d] ?? 0);
    if (!(dot >= worst)) worst = dot;
    if (reference[i].length !== candidate[i].length) worst = -1;
  }
  return { agree: worst > min, worst };
}

/** Short texts of different kinds, enough to expose a backend that computes something else. */
export const PROBE_TEXTS = ['Paris', 'two hundred and twelve', 'The quick brown fox jumps over the lazy dog.', 'Albert Einstein', '1969'];
