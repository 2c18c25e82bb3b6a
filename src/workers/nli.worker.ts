/**
 * The NLI model's module worker: Transformers.js text-pair classification off the main thread,
 * for the entailment clusterer. Built like the embedding worker: the classifier is created once,
 * lazily (a cached promise per configuration); load progress is forwarded through a callback;
 * expected failures come back as values ({ok: false, error}), over the one worker protocol.
 *
 * Backends: WASM always works. When `navigator.gpu` exists, WebGPU is tried too, and trusted only
 * if its decisions on a few probe pairs agree with the WASM ones (same top class, probabilities
 * within 0.02); otherwise WASM is used and the reason is reported.
 */
// ONNX Runtime's WASM binary, emitted into the build by Vite and served by the app itself; the
// bundled runtime would otherwise be pointed at a CDN by Transformers.js.
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import type { EmbeddingDtype, ModelProgress } from '../clustering/embedding-models';
import type { NliPair } from '../clustering/entailment';
import { classifyPairs, decisionsAgree, loadPairClassifier, pairLogits, PROBE_PAIRS, type NliModelSource, type PairClassifier } from '../clustering/text-pair-classification';
import type { NliLabel } from '../model/entailment-cache';
import type { Result } from '../model/rows';
import { WEBGPU_CHECK_DECISIONS } from './model-load';
import { exposeApi } from './worker-connection';

export interface NliWorkerConfig {
  model: string;
  dtype?: EmbeddingDtype;
  allowRemoteModels?: boolean;
  /** Same-origin path of the app's models folder ('/models/'); null to skip local lookup. */
  localModelPath: string | null;
  /** 'auto': use WebGPU when present and verified; 'off': WASM only. */
  webgpu?: 'auto' | 'off';
}

export interface NliBackendInfo {
  model: string;
  device: 'webgpu' | 'wasm';
  /** Why WASM runs the model: WebGPU absent, turned off, failed, or disagreeing with WASM. */
  note?: string;
}

interface Loaded {
  classifier: PairClassifier;
  info: NliBackendInfo;
}

let loaded: Promise<Loaded> | undefined;
let loadedKey = '';

const message = (err: unknown) => (err as Error)?.message ?? String(err);

async function load(config: NliWorkerConfig, onProgress?: (p: ModelProgress) => void): Promise<Loaded> {
  const source: NliModelSource = {
    model: config.model,
    dtype: config.dtype ?? 'q8',
    allowRemoteModels: config.allowRemoteModels ?? false,
    localModelPath: config.localModelPath,
    wasmPaths: { wasm: new URL(ortWasmUrl, self.location.href).href },
  };
  const wasm = await loadPairClassifier({ ...source, device: 'wasm' }, onProgress);
  const gpu = (navigator as Navigator & { gpu?: unknown }).gpu;
  if (!gpu) return { classifier: wasm, info: { model: config.model, device: 'wasm', note: 'WebGPU is not available in this browser; using WASM' } };
  if (config.webgpu === 'off') return { classifier: wasm, info: { model: config.model, device: 'wasm', note: 'WebGPU is turned off for the NLI model; using WASM' } };
  try {
    onProgress?.({ status: WEBGPU_CHECK_DECISIONS });
    const webgpu = await loadPairClassifier({ ...source, device: 'webgpu' });
    const check = decisionsAgree(await pairLogits(wasm, [...PROBE_PAIRS]), await pairLogits(webgpu, [...PROBE_PAIRS]));
    if (check.agree) {
      await wasm.dispose();
      return { classifier: webgpu, info: { model: config.model, device: 'webgpu' } };
    }
    await webgpu.dispose();
    return { classifier: wasm, info: { model: config.model, device: 'wasm', note: `WebGPU decisions disagree with WASM (largest probability difference ${check.worst.toFixed(4)}); using WASM` } };
  } catch (err) {
    return { classifier: wasm, info: { model: config.model, device: 'wasm', note: `WebGPU unavailable (${message(err)}); using WASM` } };
  }
}

function ready(config: NliWorkerConfig, onProgress?: (p: ModelProgress) => void): Promise<Loaded> {
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

let current: NliWorkerConfig | undefined;

const api = {
  /** Loads (once) and reports the backend chosen. */
  async init(config: NliWorkerConfig, onProgress?: (p: ModelProgress) => void): Promise<Result<NliBackendInfo>> {
    current = config;
    try {
      return { ok: true, value: (await ready(config, onProgress)).info };
    } catch (err) {
      return { ok: false, error: { kind: 'nli-model', message: `could not load NLI model "${config.model}": ${message(err)}`, where: 'NLI worker' } };
    }
  },

  /** The top label of each pair, in order. */
  async decide(pairs: NliPair[]): Promise<Result<NliLabel[]>> {
    if (!current) return { ok: false, error: { kind: 'nli-model', message: 'decide called before init', where: 'NLI worker' } };
    try {
      const { classifier } = await ready(current);
      return { ok: true, value: await classifyPairs(classifier, current.model, pairs) };
    } catch (err) {
      return { ok: false, error: { kind: 'entailment', message: `entailment failed: ${message(err)}`, where: 'NLI worker' } };
    }
  },
};

export type NliWorkerApi = typeof api;

exposeApi(api);
