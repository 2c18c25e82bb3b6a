/**
 * The run worker's (or page's) side of the generation worker: a `ReplyGenerator` (what the
 * in-browser provider needs) backed by the module worker, created on first use, built like the
 * embedding and NLI clients. A shipped model's files come from the app's own /models/ folder and
 * the hub is never asked for it; any other model comes from the Hugging Face hub when allowed,
 * and is kept by the browser's cache after its first download.
 */
import * as Comlink from 'comlink';
import type { ModelLoadProgress } from '../model/run-spec';
import type { Result } from '../model/rows';
import type { GenerateRequest, GenerateResult, GenerationLoadProgress } from '../providers/in-browser/generate';
import { isShippedGenerationModel } from '../providers/in-browser/models';
import type { ReplyGenerator } from '../providers/in-browser/provider';
import type { GenerationBackendInfo, GenerationWorkerApi } from './generation.worker';
import { applyModelProgress, modelFailed, modelLoaded, startModelLoad } from './model-load';
import { errorInfo } from './transfer';
import { connectApi, type WorkerConnection } from './worker-connection';

export interface GenerationClientOptions {
  model: string;
  /** Let the worker fetch a model the app does not ship from the Hugging Face hub (default false). */
  allowRemoteModels?: boolean;
  /** Where the app's models folder is (default: `models/` beside the page's base URL). */
  localModelUrl?: string;
  webgpu?: 'auto' | 'off';
}

export interface GenerationClient extends ReplyGenerator {
  model: string;
  /** Loads the model (once) and tells which backend runs it. */
  init(): Promise<Result<GenerationBackendInfo>>;
  /** Follows the model's loading: the state so far at once (if begun), then every change. Returns an unsubscribe. */
  watchLoad(listener: (state: ModelLoadProgress) => void): () => void;
  dispose(): void;
}

/** Where the worker looks for a model's files (as for the embedding and NLI models). */
export function generationModelSources(model: string, allowRemoteModels: boolean): { allowRemote: boolean; useLocal: boolean } {
  const shipped = isShippedGenerationModel(model);
  const allowRemote = !shipped && allowRemoteModels;
  return { allowRemote, useLocal: shipped || !allowRemote };
}

/** An error the in-browser provider reads by its name (provider.ts): a model that cannot load stops the run. */
function loadError(text: string): Error {
  const e = new Error(text);
  e.name = 'ModelLoadError';
  return e;
}

export function createGenerationClient(options: GenerationClientOptions): GenerationClient {
  const model = options.model;
  const { allowRemote, useLocal } = generationModelSources(model, options.allowRemoteModels ?? false);
  let worker: WorkerConnection<GenerationWorkerApi> | undefined;
  let initialized: Promise<Result<GenerationBackendInfo>> | undefined;
  let load: ModelLoadProgress | undefined;
  let backend: GenerationBackendInfo | undefined;
  let nextId = 1;
  const watchers = new Set<(state: ModelLoadProgress) => void>();
  const setLoad = (next: ModelLoadProgress) => {
    load = next;
    for (const w of watchers) w(next);
  };
  const start = (): ModelLoadProgress => ({ ...startModelLoad(model), role: 'generation' });
  const progressed = (p: GenerationLoadProgress) => {
    if (load) setLoad(applyModelProgress(load, p));
  };

  const init = () => {
    if (!initialized) {
      setLoad(start());
      worker = connectApi<GenerationWorkerApi>(() => new Worker(new URL('./generation.worker.ts', import.meta.url), { type: 'module', name: 'generation' }), { name: 'generation' });
      const base = globalThis.document?.baseURI ?? globalThis.location.href;
      initialized = worker.api
        .init(
          {
            model,
            allowRemoteModels: allowRemote,
            // A path, not a URL: Transformers.js looks for local files only under non-http(s) paths.
            localModelPath: !useLocal ? null : new URL(options.localModelUrl ?? 'models/', base).pathname,
            webgpu: options.webgpu ?? 'auto',
          },
          Comlink.proxy(progressed),
        )
        .catch((e: unknown): Result<GenerationBackendInfo> => ({ ok: false, error: errorInfo(e, 'generation worker') }))
        .then((r) => {
          const before = load ?? start();
          if (r.ok) {
            backend = r.value;
            setLoad(modelLoaded(before, r.value));
          } else setLoad(modelFailed(before, r.error.message));
          // A failed load is not cached: the next call starts over.
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
    notes: () => (backend ? [`generated in this browser on ${backend.device === 'webgpu' ? 'WebGPU' : 'WASM'}${backend.note ? ` (${backend.note.replace(/;\s*using WASM$/, '')})` : ''}`] : []),
    async generate(request: GenerateRequest, signal?: AbortSignal): Promise<GenerateResult> {
      const ready = await init();
      if (!ready.ok) throw loadError(ready.error.message);
      if (signal?.aborted) throw new DOMException('generation was cancelled', 'AbortError');
      const id = nextId++;
      const connection = worker!;
      const onAbort = () => void connection.api.cancel(id);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const r = await connection.api.generate(id, request);
        if (!r.ok) {
          if (r.error.kind === 'aborted') throw new DOMException(r.error.message, 'AbortError');
          throw new Error(r.error.message);
        }
        return r.value;
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}
