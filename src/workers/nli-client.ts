/**
 * The page's (or run worker's) side of the NLI worker: an `EntailmentDecider` (what the
 * entailment clusterer needs) backed by the module worker, created on first use, built like the
 * embedding client. Model files come from the app's own /models/ folder; the hub is asked only for
 * a model the app does not ship, and only when the caller allows remote models.
 */
import * as Comlink from 'comlink';
import type { EntailmentDecider } from '../clustering/entailment';
import type { EmbeddingDtype, ModelProgress } from '../clustering/embedding-models';
import { DEFAULT_NLI_MODEL, isShippedNliModel } from '../clustering/nli-models';
import type { ModelLoadProgress } from '../model/run-spec';
import type { Result } from '../model/rows';
import type { NliBackendInfo, NliWorkerApi } from './nli.worker';
import { applyModelProgress, modelFailed, modelLoaded, startModelLoad } from './model-load';
import { errorInfo } from './transfer';
import { connectApi, type WorkerConnection } from './worker-connection';

export interface NliClientOptions {
  model?: string;
  dtype?: EmbeddingDtype;
  /** Let the worker fetch models from the Hugging Face hub (default false). */
  allowRemoteModels?: boolean;
  /** Where the app's models folder is (default: `models/` beside the page's base URL). */
  localModelUrl?: string;
  webgpu?: 'auto' | 'off';
  /** Model download / load progress. */
  onProgress?: (p: ModelProgress) => void;
}

export interface NliClient extends EntailmentDecider {
  /** Loads the model (once) and tells which backend runs it. */
  init(): Promise<Result<NliBackendInfo>>;
  /** Follows the model's loading: the state so far at once (if begun), then every change. Returns an unsubscribe. */
  watchLoad(listener: (state: ModelLoadProgress) => void): () => void;
  dispose(): void;
}

/**
 * Where the worker looks for a model's files: a shipped model only in the app's folder (the hub is
 * never asked for it); any other from the hub when allowed, else from the app's folder, where it fails.
 */
export function nliModelSources(model: string, allowRemoteModels: boolean): { allowRemote: boolean; useLocal: boolean } {
  const shipped = isShippedNliModel(model);
  const allowRemote = !shipped && allowRemoteModels;
  return { allowRemote, useLocal: shipped || !allowRemote };
}

export function createNliClient(options: NliClientOptions = {}): NliClient {
  const model = options.model ?? DEFAULT_NLI_MODEL;
  const { allowRemote, useLocal } = nliModelSources(model, options.allowRemoteModels ?? false);
  let worker: WorkerConnection<NliWorkerApi> | undefined;
  let initialized: Promise<Result<NliBackendInfo>> | undefined;
  let load: ModelLoadProgress | undefined;
  const watchers = new Set<(state: ModelLoadProgress) => void>();
  const setLoad = (next: ModelLoadProgress) => {
    load = next;
    for (const w of watchers) w(next);
  };
  const progressed = (p: ModelProgress) => {
    if (load) setLoad(applyModelProgress(load, p));
    options.onProgress?.(p);
  };

  const init = () => {
    if (!initialized) {
      setLoad({ ...startModelLoad(model), role: 'nli' });
      worker = connectApi<NliWorkerApi>(() => new Worker(new URL('./nli.worker.ts', import.meta.url), { type: 'module', name: 'nli' }), { name: 'nli' });
      const base = globalThis.document?.baseURI ?? globalThis.location.href;
      initialized = worker.api
        .init(
          {
            model,
            dtype: options.dtype ?? 'q8',
            allowRemoteModels: allowRemote,
            // A path, not a URL: Transformers.js looks for local files only under non-http(s) paths.
            localModelPath: !useLocal ? null : new URL(options.localModelUrl ?? 'models/', base).pathname,
            webgpu: options.webgpu ?? 'auto',
          },
          Comlink.proxy(progressed),
        )
        .catch((e: unknown): Result<NliBackendInfo> => ({ ok: false, error: errorInfo(e, 'NLI worker') }))
        .then((r) => {
          const before = load ?? { ...startModelLoad(model), role: 'nli' as const };
          if (r.ok) setLoad(modelLoaded(before, r.value));
          else setLoad(modelFailed(before, r.error.message));
          // A failed load is not cached: the next call starts over (e.g. after allowing remote models).
          if (!r.ok) dispose();
          return r;
        });
    }
    return initialized;
  };

  function dispose() {
    worker?.close();
    worker = undefined;
    initialized = undefined;
  }

  return {
    model,
    init,
    dispose,
    watchLoad(listener) {
      watchers.add(listener);
      if (load) listener(load);
      return () => watchers.delete(listener);
    },
    async decide(pairs, signal) {
      const ready = await init();
      if (!ready.ok) throw new Error(ready.error.message);
      if (signal?.aborted) throw new DOMException('entailment was cancelled', 'AbortError');
      const r = await worker!.api.decide(pairs);
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    },
  };
}
