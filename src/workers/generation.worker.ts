/**
 * The in-browser language model's module worker: Transformers.js text generation off the main
 * thread (and off the run worker's), for the 'in-browser' provider. Built like the embedding and
 * NLI workers, on model-worker.ts: the model is created once, lazily (a cached promise per
 * configuration); load progress is forwarded through a callback; expected failures come back as
 * values ({ok: false, error}), over the one worker protocol (worker-connection.ts). A request can
 * be cancelled by its id.
 *
 * Backends: WASM always works. When `navigator.gpu` exists, WebGPU is tried too, and trusted only
 * if its next-token probabilities on a few probe prompts agree with the WASM ones (same most
 * likely token, total variation below 0.1); otherwise WASM runs the model and the reason is
 * reported. Both are held while WebGPU is checked (a large model needs the memory twice, briefly):
 * after a WebGPU failure ONNX Runtime may not start its WASM backend again in this worker, so WASM
 * is never given up first (not `oneAtATime`).
 */
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
import { chooseBackend, createModelHost, type ModelBackendInfo, type ModelWorkerConfig } from './model-worker';
import { errorMessage } from '../model/app-error';
import { exposeApi } from './worker-connection';
import { workerModelSource } from './worker-model-source';

export type GenerationWorkerConfig = ModelWorkerConfig<GenerationDtype>;
export type GenerationBackendInfo = ModelBackendInfo;

async function probe(g: LoadedGenerator): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (const messages of PROBE_MESSAGES) out.push(await nextTokenProbabilities(g, messages));
  return out;
}

function load(config: GenerationWorkerConfig, onProgress?: (p: GenerationLoadProgress) => void) {
  // No dtype: the model list's (models.ts).
  const source: GenerationSource = { ...workerModelSource(config), ...(config.dtype ? { dtype: config.dtype } : {}) };
  return chooseBackend<LoadedGenerator, Float32Array[]>(
    {
      model: config.model,
      webgpu: config.webgpu,
      load: (device, progress) => loadGenerator({ ...source, device }, progress),
      probe,
      agree: (reference, candidate) => distributionsAgree(reference, candidate),
      dispose: (g) => g.dispose(),
      turnedOffFor: 'the language model',
      disagreement: (worst) => `WebGPU's next-token probabilities disagree with WASM (total variation ${worst.toFixed(3)})`,
      checkStatus: WEBGPU_CHECK_GENERATION,
      // The loader's own preamble (which model, where from) says nothing here: its cause does.
      failureCause: (err) => errorMessage(err).replace(/^could not load "[^"]*" from .*?: /, ''),
    },
    onProgress,
  );
}

const host = createModelHost(load, (_config, message) => ({ kind: 'model-load', message, where: 'generation worker' }));
const running = new Map<number, AbortController>();

const api = {
  /** Loads (once) and reports the backend chosen. */
  init: (config: GenerationWorkerConfig, onProgress?: (p: GenerationLoadProgress) => void): Promise<Result<GenerationBackendInfo>> => host.init(config, onProgress),

  /** Request `id`'s replies; `cancel(id)` stops it at the next token. */
  async generate(id: number, request: GenerateRequest): Promise<Result<GenerateResult>> {
    const use = host.use();
    if (!use) return { ok: false, error: { kind: 'generation', message: 'generate called before init', where: 'generation worker' } };
    const controller = new AbortController();
    running.set(id, controller);
    try {
      return { ok: true, value: await generateReplies((await use.loaded).instance, request, { signal: controller.signal }) };
    } catch (err) {
      const cancelled = controller.signal.aborted;
      return { ok: false, error: { kind: cancelled ? 'aborted' : 'generation', message: cancelled ? 'generation was cancelled' : errorMessage(err), where: 'generation worker' } };
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
