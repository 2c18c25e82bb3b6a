/**
 * What the in-page model workers share (embedding.worker.ts, nli.worker.ts, generation.worker.ts):
 * the configuration a client sends and the backend it learns, the model loaded once per
 * configuration, and the backend choice.
 *
 * Backends: WASM always works. When `navigator.gpu` exists and WebGPU is not turned off, WebGPU is
 * tried too, and trusted only if its outputs on a few probe inputs agree with the WASM ones (each
 * model kind says what agreeing means); otherwise WASM runs the model and the reason is reported.
 * Pure of the worker's globals but `navigator` (read only when not given), so it is unit-tested.
 */
import type { ModelProgress } from '../model/progress';
import type { Result, StageError } from '../model/rows';
import { DEFAULT_MODEL_HUB, hubUnreachableError, isNetworkFailure } from '../model/model-hub';
import { errorMessage } from '../model/app-error';

export interface ModelWorkerConfig<Dtype extends string = string> {
  model: string;
  dtype?: Dtype;
  allowRemoteModels?: boolean;
  /** Same-origin path of the app's models folder ('/models/'); null to skip local lookup. */
  localModelPath: string | null;
  /** 'auto': use WebGPU when present and verified; 'off': WASM only. */
  webgpu?: 'auto' | 'off';
  /** Where hub files come from (model/model-hub.ts; default the Hugging Face hub). */
  remoteHost?: string;
}

export type ModelDevice = 'webgpu' | 'wasm';

export interface ModelBackendInfo {
  model: string;
  device: ModelDevice;
  /** Why WASM runs the model: WebGPU absent, turned off, failed, or disagreeing with WASM. */
  note?: string;
  /** The loaded files' hash (transformers/model-identity.ts), for models whose results are cached by it. */
  identity?: string;
}

export interface LoadedModel<M> {
  instance: M;
  info: ModelBackendInfo;
}

type OnProgress = (p: ModelProgress) => void;

export function hasWebGpu(): boolean {
  return Boolean((globalThis.navigator as (Navigator & { gpu?: unknown }) | undefined)?.gpu);
}

export interface BackendChoice<M, P> {
  model: string;
  webgpu?: 'auto' | 'off';
  /** Loads the model on a device; only the first (WASM) load reports progress. */
  load(device: ModelDevice, onProgress?: OnProgress): Promise<M>;
  /** The model's outputs on the probe inputs. */
  probe(instance: M): Promise<P>;
  /** Whether a candidate's probe outputs agree with the reference's, and the worst figure seen. */
  agree(reference: P, candidate: P): { agree: boolean; worst: number };
  dispose(instance: M): Promise<void>;
  /** What is off when WebGPU is turned off: "embeddings", "the NLI model". */
  turnedOffFor: string;
  /** The note when the probes disagree, e.g. `WebGPU vectors disagree with WASM (worst cosine 0.5)`. */
  disagreement(worst: number): string;
  /** The progress status sent (model-load.ts names it) when WebGPU is tried. */
  checkStatus: string;
  /**
   * Never hold two copies of the model (a large one): probe WASM and dispose it before loading
   * WebGPU, and load WASM again (from the browser's cache) when WebGPU is not trusted. Not for a
   * model whose WASM runtime cannot start again after a failed WebGPU attempt in the same worker
   * (ONNX Runtime's, for the language model: generation.worker.ts keeps WASM loaded).
   */
  oneAtATime?: boolean;
  /** What a failed WebGPU attempt's error says in the note (default: its message). */
  failureCause?(err: unknown): string;
  /** Whether WebGPU exists here (default: `navigator.gpu`). */
  gpuPresent?: boolean;
}

/** The model on the backend to run it, and why, as above. */
export async function chooseBackend<M, P>(choice: BackendChoice<M, P>, onProgress?: OnProgress): Promise<LoadedModel<M>> {
  const info = (device: ModelDevice, note?: string): ModelBackendInfo => ({ model: choice.model, device, ...(note ? { note } : {}) });
  const unavailable = (err: unknown) => `WebGPU unavailable (${choice.failureCause ? choice.failureCause(err) : errorMessage(err)})`;
  const wasm = await choice.load('wasm', onProgress);
  if (!(choice.gpuPresent ?? hasWebGpu())) return { instance: wasm, info: info('wasm', 'WebGPU is not available in this browser; using WASM') };
  if (choice.webgpu === 'off') return { instance: wasm, info: info('wasm', `WebGPU is turned off for ${choice.turnedOffFor}; using WASM`) };
  if (choice.oneAtATime) {
    onProgress?.({ status: choice.checkStatus });
    const reference = await choice.probe(wasm);
    await choice.dispose(wasm);
    let why: string;
    try {
      const webgpu = await choice.load('webgpu');
      const check = choice.agree(reference, await choice.probe(webgpu));
      if (check.agree) return { instance: webgpu, info: info('webgpu') };
      await choice.dispose(webgpu);
      why = choice.disagreement(check.worst);
    } catch (err) {
      why = unavailable(err);
    }
    return { instance: await choice.load('wasm'), info: info('wasm', `${why}; using WASM`) };
  }
  try {
    onProgress?.({ status: choice.checkStatus });
    const webgpu = await choice.load('webgpu');
    const check = choice.agree(await choice.probe(wasm), await choice.probe(webgpu));
    if (check.agree) {
      await choice.dispose(wasm);
      return { instance: webgpu, info: info('webgpu') };
    }
    await choice.dispose(webgpu);
    return { instance: wasm, info: info('wasm', `${choice.disagreement(check.worst)}; using WASM`) };
  } catch (err) {
    return { instance: wasm, info: info('wasm', `${unavailable(err)}; using WASM`) };
  }
}

export interface ModelHost<C, L> {
  /** Loads for `config` (once per configuration) and makes it the one later calls use; a failure comes back as a value. */
  init(config: C, onProgress?: OnProgress): Promise<Result<ModelBackendInfo>>;
  /** The last init's configuration and its model (loaded again if that load failed); undefined before any init. */
  use(): { config: C; loaded: Promise<L> } | undefined;
}

/**
 * A worker's one model: created lazily, a cached promise per configuration (a new configuration
 * loads anew), a failed load forgotten so the next call tries again.
 */
/**
 * A load failure as the client is told it: the hub unreachable (the files had to come from it
 * and the network failed) is its own kind, worded once (model/model-hub.ts); any other, `loadFailed`'s.
 */
export function loadFailure<C extends { allowRemoteModels?: boolean; remoteHost?: string }>(config: C, err: unknown, loadFailed: (config: C, message: string) => StageError): StageError {
  const error = loadFailed(config, errorMessage(err));
  if (!config.allowRemoteModels || !isNetworkFailure(err)) return error;
  return hubUnreachableError(config.remoteHost ?? DEFAULT_MODEL_HUB, errorMessage(err), error.where ?? 'model worker');
}

export function createModelHost<C extends { model: string; allowRemoteModels?: boolean; remoteHost?: string }, L extends { info: ModelBackendInfo }>(
  load: (config: C, onProgress?: OnProgress) => Promise<L>,
  loadFailed: (config: C, message: string) => StageError,
): ModelHost<C, L> {
  let loaded: Promise<L> | undefined;
  let loadedKey = '';
  let current: C | undefined;
  const ready = (config: C, onProgress?: OnProgress): Promise<L> => {
    const key = JSON.stringify(config);
    if (!loaded || key !== loadedKey) {
      loadedKey = key;
      loaded = load(config, onProgress).catch((err) => {
        loaded = undefined;
        throw err;
      });
    }
    return loaded;
  };
  return {
    async init(config, onProgress) {
      current = config;
      try {
        return { ok: true, value: (await ready(config, onProgress)).info };
      } catch (err) {
        return { ok: false, error: loadFailure(config, err, loadFailed) };
      }
    },
    use: () => (current ? { config: current, loaded: ready(current) } : undefined),
  };
}
