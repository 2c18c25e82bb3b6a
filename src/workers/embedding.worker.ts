/**
 * The embedding model's module worker: Transformers.js feature extraction off the main thread.
 * The model is created once, lazily (a cached promise per configuration); vectors go back as
 * transferred Float32Arrays; load progress is forwarded through a callback; expected failures
 * come back as values ({ok: false, error}), over the one worker protocol (worker-connection.ts).
 *
 * Backends: WASM always works. When `navigator.gpu` exists, WebGPU is tried too, and trusted only
 * if its vectors for a few probe texts agree with the WASM ones (cosine > 0.99 each); otherwise
 * WASM is used and the reason is reported.
 */
import * as Comlink from 'comlink';
// ONNX Runtime's WASM binary, emitted into the build by Vite and served by the app itself; the
// bundled runtime would otherwise be pointed at a CDN by Transformers.js.
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import { embedTexts, loadFeatureExtractor, PROBE_TEXTS, vectorsAgree, type EmbeddingDtype, type ModelProgress, type ModelSource } from '../clustering/feature-extraction';
import type { Result } from '../model/rows';
import { WEBGPU_CHECK } from './model-load';
import { exposeApi } from './worker-connection';

export interface EmbeddingWorkerConfig {
  model: string;
  dtype?: EmbeddingDtype;
  allowRemoteModels?: boolean;
  /** Same-origin path of the app's models folder ('/models/'); null to skip local lookup. */
  localModelPath: string | null;
  /** 'auto': use WebGPU when present and verified; 'off': WASM only. */
  webgpu?: 'auto' | 'off';
}

export interface EmbeddingBackendInfo {
  model: string;
  device: 'webgpu' | 'wasm';
  /** Why WASM runs the model: WebGPU absent, turned off, failed, or disagreeing with WASM. */
  note?: string;
}

interface Loaded {
  extractor: FeatureExtractionPipeline;
  info: EmbeddingBackendInfo;
}

let loaded: Promise<Loaded> | undefined;
let loadedKey = '';

const message = (err: unknown) => (err as Error)?.message ?? String(err);

async function load(config: EmbeddingWorkerConfig, onProgress?: (p: ModelProgress) => void): Promise<Loaded> {
  const source: ModelSource = {
    model: config.model,
    dtype: config.dtype ?? 'q8',
    allowRemoteModels: config.allowRemoteModels ?? false,
    localModelPath: config.localModelPath,
    wasmPaths: { wasm: new URL(ortWasmUrl, self.location.href).href },
  };
  const wasm = await loadFeatureExtractor({ ...source, device: 'wasm' }, onProgress);
  const gpu = (navigator as Navigator & { gpu?: unknown }).gpu;
  if (!gpu) return { extractor: wasm, info: { model: config.model, device: 'wasm', note: 'WebGPU is not available in this browser; using WASM' } };
  if (config.webgpu === 'off') return { extractor: wasm, info: { model: config.model, device: 'wasm', note: 'WebGPU is turned off for embeddings; using WASM' } };
  try {
    onProgress?.({ status: WEBGPU_CHECK });
    const webgpu = await loadFeatureExtractor({ ...source, device: 'webgpu' });
    const check = vectorsAgree(await embedTexts(wasm, PROBE_TEXTS), await embedTexts(webgpu, PROBE_TEXTS), 0.99);
    if (check.agree) {
      await wasm.dispose();
      return { extractor: webgpu, info: { model: config.model, device: 'webgpu' } };
    }
    await webgpu.dispose();
    return { extractor: wasm, info: { model: config.model, device: 'wasm', note: `WebGPU vectors disagree with WASM (worst cosine ${check.worst.toFixed(4)}); using WASM` } };
  } catch (err) {
    return { extractor: wasm, info: { model: config.model, device: 'wasm', note: `WebGPU unavailable (${message(err)}); using WASM` } };
  }
}

function ready(config: EmbeddingWorkerConfig, onProgress?: (p: ModelProgress) => void): Promise<Loaded> {
  const key = JSON.stringify(config);
  if (!loaded || key !== loadedKey) {
    loadedKey = key;
    loaded = load(config, onProgress).catch((err) => {
      loaded = undefined;
      throw err;
    });
  }
  return loaded;
}

let current: EmbeddingWorkerConfig | undefined;

const api = {
  /** Loads (once) and reports the backend chosen. */
  async init(config: EmbeddingWorkerConfig, onProgress?: (p: ModelProgress) => void): Promise<Result<EmbeddingBackendInfo>> {
    current = config;
    try {
      return { ok: true, value: (await ready(config, onProgress)).info };
    } catch (err) {
      return { ok: false, error: { kind: 'embedding-model', message: `could not load embedding model "${config.model}": ${message(err)}`, where: 'embedding worker' } };
    }
  },

  async embed(texts: string[]): Promise<Result<Float32Array[]>> {
    if (!current) return { ok: false, error: { kind: 'embedding-model', message: 'embed called before init', where: 'embedding worker' } };
    try {
      const { extractor } = await ready(current);
      const vectors = await embedTexts(extractor, texts);
      return Comlink.transfer({ ok: true, value: vectors }, vectors.map((v) => v.buffer as ArrayBuffer));
    } catch (err) {
      return { ok: false, error: { kind: 'embedding', message: `embedding failed: ${message(err)}`, where: 'embedding worker' } };
    }
  },
};

export type EmbeddingWorkerApi = typeof api;

exposeApi(api);
