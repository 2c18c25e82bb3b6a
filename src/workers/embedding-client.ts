/**
 * The page's side of the embedding worker: an `Embedder` (what the embedding clusterer needs)
 * backed by the module worker, created on first use. Model files come from the app's own
 * /models/ folder; the hub is asked only for a model the app does not ship, and only when the
 * caller allows remote models. Downloaded files are kept by the browser (feature-extraction.ts).
 */
import * as Comlink from 'comlink';
import type { Embedder } from '../clustering/embedding';
import { DEFAULT_EMBEDDING_MODEL, isShippedEmbeddingModel, type EmbeddingDtype, type ModelProgress } from '../clustering/embedding-models';
import type { ModelLoadProgress } from '../model/run-spec';
import type { Result } from '../model/rows';
import type { EmbeddingBackendInfo, EmbeddingWorkerApi } from './embedding.worker';
import { applyModelProgress, modelFailed, modelLoaded, startModelLoad } from './model-load';
import { errorInfo } from './transfer';
import { connectApi, type WorkerConnection } from './worker-connection';

export interface EmbeddingClientOptions {
  model?: string;
  dtype?: EmbeddingDtype;
  /** Let the worker fetch models from the Hugging Face hub (default false). */
  allowRemoteModels?: boolean;
  /** Look for `<model>/…` under the app's /models/ first (default: yes, except for a hub model
   * when remote models are allowed, which would only produce 404s before going to the hub). */
  useLocalModels?: boolean;
  /** Where the app's models folder is (default: `models/` beside the page's base URL). */
  localModelUrl?: string;
  webgpu?: 'auto' | 'off';
  /** Model download / load progress. */
  onProgress?: (p: ModelProgress) => void;
}

export interface EmbeddingClient extends Embedder {
  /** Loads the model (once) and tells which backend runs it. */
  init(): Promise<Result<EmbeddingBackendInfo>>;
  /**
   * Follows the model's loading: the listener gets the state so far at once (if loading has
   * begun, so a run that comes after the load still learns the backend) and every change after
   * it. Returns an unsubscribe.
   */
  watchLoad(listener: (state: ModelLoadProgress) => void): () => void;
  dispose(): void;
}

/**
 * Where the worker looks for a model's files. A model the app ships is read from its own folder
 * only: the hub is never asked for it, so a run (or a test) that uses one downloads nothing
 * whatever the download setting says. Any other model comes from the hub when allowed (looking
 * in the app's folder first would only produce 404s), else from the app's folder, where it fails.
 */
export function modelSources(model: string, options: Pick<EmbeddingClientOptions, 'allowRemoteModels' | 'useLocalModels'>): { allowRemote: boolean; useLocal: boolean } {
  const shipped = isShippedEmbeddingModel(model);
  const allowRemote = !shipped && (options.allowRemoteModels ?? false);
  return { allowRemote, useLocal: options.useLocalModels ?? (shipped || !allowRemote) };
}

export function createEmbeddingClient(options: EmbeddingClientOptions = {}): EmbeddingClient {
  const model = options.model ?? DEFAULT_EMBEDDING_MODEL;
  const { allowRemote, useLocal } = modelSources(model, options);
  let worker: WorkerConnection<EmbeddingWorkerApi> | undefined;
  let initialized: Promise<Result<EmbeddingBackendInfo>> | undefined;
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
      setLoad(startModelLoad(model));
      worker = connectApi<EmbeddingWorkerApi>(() => new Worker(new URL('./embedding.worker.ts', import.meta.url), { type: 'module', name: 'embedding' }), { name: 'embedding' });
      const base = globalThis.document?.baseURI ?? globalThis.location.href;
      const onProgress = Comlink.proxy(progressed);
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
          onProgress,
        )
        .catch((e: unknown): Result<EmbeddingBackendInfo> => ({ ok: false, error: errorInfo(e, 'embedding worker') }))
        .then((r) => {
          if (r.ok) setLoad(modelLoaded(load ?? startModelLoad(model), r.value));
          else setLoad(modelFailed(load ?? startModelLoad(model), r.error.message));
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
    async embed(texts, signal) {
      const ready = await init();
      if (!ready.ok) throw new Error(ready.error.message);
      if (signal?.aborted) throw new DOMException('embedding was cancelled', 'AbortError');
      const r = await worker!.api.embed(texts);
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    },
  };
}
