/**
 * Sentence vectors from Transformers.js 'feature-extraction' (mean pooling, L2-normalized),
 * shared by the browser's embedding worker and by Node (CLI, tests, benchmarks). The library's
 * settings, load options and load-once come from transformers-env.ts, as for the NLI model.
 */
import { pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import type { Embedder } from './embedding';
import type { EmbeddingDevice, EmbeddingDtype } from './embedding-models';
import type { ModelProgress } from '../model/progress';
import { applyEnv, loadOptions, type TransformersSource } from '../transformers/transformers-env';
import { lazyIdentifiedModel } from '../transformers/model-identity';

export { DEFAULT_EMBEDDING_MODEL, TINY_EMBEDDING_MODEL, type EmbeddingDtype, type EmbeddingDevice } from './embedding-models';

export interface ModelSource extends TransformersSource {
  /** Default q8 (model_quantized.onnx). */
  dtype?: EmbeddingDtype;
  device?: EmbeddingDevice;
  pooling?: 'mean' | 'cls';
}

export async function loadFeatureExtractor(source: ModelSource, onProgress?: (p: ModelProgress) => void): Promise<FeatureExtractionPipeline> {
  applyEnv(source);
  return pipeline('feature-extraction', source.model, loadOptions(source.dtype ?? 'q8', source.device, onProgress));
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
 * An Embedder over Transformers.js: the model is created once, on first use (`lazily`: concurrent
 * first calls share one load; a failed load is forgotten so a later call can try again).
 */
export function createTransformersEmbedder(source: ModelSource, onProgress?: (p: ModelProgress) => void): Embedder & { ready(): Promise<FeatureExtractionPipeline> } {
  const { ready, identity } = lazyIdentifiedModel(source, () => loadFeatureExtractor(source, onProgress));
  return {
    model: source.model,
    ready,
    identity,
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
