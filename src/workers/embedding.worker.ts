/**
 * The embedding model's module worker: Transformers.js feature extraction off the main thread.
 * The model is created once, lazily (a cached promise per configuration); vectors go back as
 * transferred Float32Arrays; load progress is forwarded through a callback; expected failures
 * come back as values ({ok: false, error}), over the one worker protocol (worker-connection.ts).
 * What every model worker shares is in model-worker.ts.
 *
 * Backends: WASM always works. When `navigator.gpu` exists, WebGPU is tried too, and trusted only
 * if its vectors for a few probe texts agree with the WASM ones (cosine > 0.99 each); otherwise
 * WASM is used and the reason is reported.
 */
import * as Comlink from 'comlink';
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import { embedTexts, loadFeatureExtractor, PROBE_TEXTS, vectorsAgree, type EmbeddingDtype, type ModelSource } from '../clustering/feature-extraction';
import type { ModelProgress } from '../model/progress';
import type { Result } from '../model/rows';
import { modelIdentity } from '../transformers/model-identity';
import { WEBGPU_CHECK } from './model-load';
import { chooseBackend, createModelHost, type ModelBackendInfo, type ModelWorkerConfig } from './model-worker';
import { errorMessage } from '../model/app-error';
import { exposeApi } from './worker-connection';
import { workerModelSource } from './worker-model-source';

export type EmbeddingWorkerConfig = ModelWorkerConfig<EmbeddingDtype>;
export type EmbeddingBackendInfo = ModelBackendInfo;

async function load(config: EmbeddingWorkerConfig, onProgress?: (p: ModelProgress) => void) {
  const source: ModelSource = { ...workerModelSource(config), dtype: config.dtype ?? 'q8' };
  const loaded = await chooseBackend<FeatureExtractionPipeline, Float32Array[]>(
    {
      model: config.model,
      webgpu: config.webgpu,
      load: (device, progress) => loadFeatureExtractor({ ...source, device }, progress),
      probe: (extractor) => embedTexts(extractor, PROBE_TEXTS),
      agree: (reference, candidate) => vectorsAgree(reference, candidate, 0.99),
      dispose: (extractor) => extractor.dispose(),
      turnedOffFor: 'embeddings',
      disagreement: (worst) => `WebGPU vectors disagree with WASM (worst cosine ${worst.toFixed(4)})`,
      checkStatus: WEBGPU_CHECK,
    },
    onProgress,
  );
  // Cached vectors are keyed by it: another model under the same id must not reuse them.
  return { ...loaded, info: { ...loaded.info, identity: await modelIdentity(source, source.dtype!) } };
}

const host = createModelHost(load, (config, message) => ({ kind: 'embedding-model', message: `could not load embedding model "${config.model}": ${message}`, where: 'embedding worker' }));

const api = {
  /** Loads (once) and reports the backend chosen. */
  init: (config: EmbeddingWorkerConfig, onProgress?: (p: ModelProgress) => void): Promise<Result<EmbeddingBackendInfo>> => host.init(config, onProgress),

  async embed(texts: string[]): Promise<Result<Float32Array[]>> {
    const use = host.use();
    if (!use) return { ok: false, error: { kind: 'embedding-model', message: 'embed called before init', where: 'embedding worker' } };
    try {
      const vectors = await embedTexts((await use.loaded).instance, texts);
      return Comlink.transfer({ ok: true, value: vectors }, vectors.map((v) => v.buffer as ArrayBuffer));
    } catch (err) {
      return { ok: false, error: { kind: 'embedding', message: `embedding failed: ${errorMessage(err)}`, where: 'embedding worker' } };
    }
  },
};

export type EmbeddingWorkerApi = typeof api;

exposeApi(api);
