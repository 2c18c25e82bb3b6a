/**
 * The in-browser language model's module worker: Transformers.js text generation off the main
 * thread (and off the run worker's), for the 'in-browser' provider. Built like the embedding
 * worker: the model is created once, lazily (a cached promise per configuration); load progress
 * is forwarded through a callback; expected failures come back as values ({ok: false, error}),
 * over the one worker protocol (worker-connection.ts). A request can be cancelled by its id.
 *
 * Backends: WASM always works. When `navigator.gpu` exists, WebGPU is tried too, and trusted only
 * if its next-token probabilities on a few probe prompts agree with the WASM ones (same most
 * likely token, total variation below 0.1); otherwise WASM runs the model and the reason is
 * reported. Both are held while WebGPU is checked (a large model needs the memory twice, briefly).
 */
// ONNX Runtime's WASM binary, emitted into the build by Vite and served by the app itself; the
// bundled runtime would otherwise be pointed at a CDN by Transformers.js.
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import {
  distributionsAgree,
  generateReplies,
  loadGenerator,
  nextTokenProbabilities,
  PROBE_MESSAGES,
  type GenerateRequest,
  type GenerateResult,
  type GenerationLoadProgress,
  type GenerationSource,
  type LoadedGenerator,
} from '../providers/in-browser/generate';
import type { GenerationDtype } from '../providers/in-browser/models';
import type { Result } from '../model/rows';
import { WEBGPU_CHECK_GENERATION } from './model-load';
import { exposeApi } from './worker-connection';

export interface GenerationWorkerConfig {
  model: string;
  dtype?: GenerationDtype;
  allowRemoteModels?: boolean;
  /** Same-origin path of the app's models folder ('/models/'); null to skip local lookup. */
  localModelPath: string | null;
  /** 'auto': use WebGPU when present and verified; 'off': WASM only. */
  webgpu?: 'auto' | 'off';
}

export interface GenerationBackendInfo {
  model: string;
  device: 'webgpu' | 'wasm';
  /** Why WASM runs the model: WebGPU absent, turned off, failed, or disagreeing with WASM. */
  note?: string;
}

interface Loaded {
  generator: LoadedGenerator;
  info: GenerationBackendInfo;
}

let loaded: Promise<Loaded> | undefined;
let loadedKey = '';

const message = (err: unknown) => (err as Error)?.message ?? String(err);

async function probe(g: LoadedGenerator): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (const messages of PROBE_MESSAGES) out.push(await nextTokenProbabilities(g, messages));
  return out;
}

async function load(config: GenerationWorkerConfig, onProgress?: (p: GenerationLoadProgress) => void): Promise<Loaded> {
  const source: GenerationSource = {
    model: config.model,
    ...(config.dtype ? { dtype: config.dtype } : {}),
    allowRemoteModels: config.allowRemoteModels ?? false,
    localModelPath: config.localModelPath,
    wasmPaths: { wasm: new URL(ortWasmUrl, self.location.href).href },
  };
  const wasm = await loadGenerator({ ...source, device: 'wasm' }, onProgress);
  const info = (device: 'webgpu' | 'wasm', note?: string): GenerationBackendInfo => ({ model: config.model, device, ...(note ? { note } : {}) });
  const gpu = (navigator as Navigator & { gpu?: unknown }).gpu;
  if (!gpu) return { generator: wasm, info: info('wasm', 'WebGPU is not available in this browser; using WASM') };
  if (config.webgpu === 'off') return { generator: wasm, info: info('wasm', 'WebGPU is turned off for the language model; using WASM') };
  onProgress?.({ status: WEBGPU_CHECK_GENERATION });
  // The WASM model stays loaded until WebGPU has proved itself: after a WebGPU failure ONNX
  // Runtime may not start its WASM backend again in this worker, so it is never given up first.
  try {
    const webgpu = await loadGenerator({ ...source, device: 'webgpu' });
    const check = distributionsAgree(await probe(wasm), await probe(webgpu));
    if (check.agree) {
      await wasm.dispose();
      return { generator: webgpu, info: info('webgpu') };
    }
    await webgpu.dispose();
    return { generator: wasm, info: info('wasm', `WebGPU's next-token probabilities disagree with WASM (total variation ${check.worst.toFixed(3)}); using WASM`) };
  } catch (err) {
    // The loader's own preamble (which model, where from) says nothing here: its cause does.
    const cause = message(err).replace(/^could not load "[^"]*" from .*?: /, '');
    return { generator: wasm, info: info('wasm', `WebGPU unavailable (${cause}); using WASM`) };
  }
}

function ready(config: GenerationWorkerConfig, onProgress?: (p: GenerationLoadProgress) => void): Promise<Loaded> {
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

let current: GenerationWorkerConfig | undefined;
const running = new Map<number, AbortController>();

const api = {
  /** Loads (once) and reports the backend chosen. */
  async init(config: GenerationWorkerConfig, onProgress?: (p: GenerationLoadProgress) => void): Promise<Result<GenerationBackendInfo>> {
    current = config;
    try {
      return { ok: true, value: (await ready(config, onProgress)).info };
    } catch (err) {
      return { ok: false, error: { kind: 'model-load', message: message(err), where: 'generation worker' } };
    }
  },

  /** Request `id`'s replies; `cancel(id)` stops it at the next token. */
  async generate(id: number, request: GenerateRequest): Promise<Result<GenerateResult>> {
    if (!current) return { ok: false, error: { kind: 'generation', message: 'generate called before init', where: 'generation worker' } };
    const controller = new AbortController();
    running.set(id, controller);
    try {
      const { generator } = await ready(current);
      return { ok: true, value: await generateReplies(generator, request, { signal: controller.signal }) };
    } catch (err) {
      const cancelled = controller.signal.aborted;
      return { ok: false, error: { kind: cancelled ? 'aborted' : 'generation', message: cancelled ? 'generation was cancelled' : message(err), where: 'generation worker' } };
    } finally {
      running.delete(id);
    }
  },

  cancel(id: number): void {
    running.get(id)?.abort();
  },
};

export type GenerationWorkerApi = typeof api;

exposeApi(api);
