/**
 * What the clients of the in-page model workers share (embedding-client.ts, nli-client.ts,
 * generation-client.ts): where the worker looks for a model's files, and the model's loading:
 * the worker started on first use, its load followed as one ModelLoadProgress for whoever
 * watches, a failed load not cached.
 */
import * as Comlink from 'comlink';
import type { ModelProgress } from '../model/progress';
import type { ModelLoadProgress } from '../model/run-spec';
import type { Result } from '../model/rows';
import { applyModelProgress, modelFailed, modelLoaded, startModelLoad } from './model-load';
import type { ModelBackendInfo, ModelWorkerConfig } from './model-worker';
import { errorInfo } from '../model/app-error';
import { HUB_UNREACHABLE } from '../model/model-hub';
import { HubUnreachableError } from '../model/model-load-error';
import type { WorkerConnection } from './worker-connection';

/**
 * Where the worker looks for a model's files. A model the app ships is read from its own folder
 * only: the hub is never asked for it, so a run (or a test) that uses one downloads nothing
 * whatever the download setting says. Any other model comes from the hub when allowed (looking
 * in the app's folder first would only produce 404s), else from the app's folder, where it fails.
 * `useLocalModels` overrides the second answer.
 */
export function modelSourcesFor({ shipped, allowRemoteModels = false, useLocalModels }: { shipped: boolean; allowRemoteModels?: boolean; useLocalModels?: boolean }): { allowRemote: boolean; useLocal: boolean } {
  const allowRemote = !shipped && allowRemoteModels;
  return { allowRemote, useLocal: useLocalModels ?? (shipped || !allowRemote) };
}

/**
 * The worker's localModelPath: the app's models folder (default `models/` beside the page's base
 * URL) as a path, not a URL, since Transformers.js looks for local files only under non-http(s)
 * paths; null when the app's folder is not to be looked in.
 */
export function localModelPath({ useLocal }: { useLocal: boolean }, localModelUrl?: string): string | null {
  if (!useLocal) return null;
  const base = globalThis.document?.baseURI ?? globalThis.location.href;
  return new URL(localModelUrl ?? 'models/', base).pathname;
}

/** A model client's settings (each kind's client may add its own). */
export interface ModelClientOptions<Dtype extends string = string> {
  /** Default: the kind's default model. */
  model?: string;
  dtype?: Dtype;
  /** Let the worker fetch models from the Hugging Face hub (default false). */
  allowRemoteModels?: boolean;
  /** Where the app's models folder is (default: `models/` beside the page's base URL). */
  localModelUrl?: string;
  webgpu?: 'auto' | 'off';
  /** Where hub files come from (model/model-hub.ts): an address, or read when the load begins (the stored setting). */
  remoteHost?: string | (() => Promise<string | undefined>);
  /** Model download / load progress. */
  onProgress?: (p: ModelProgress) => void;
}

/** The part of a model worker's API the loader calls. */
interface ModelWorkerInit {
  init(config: ModelWorkerConfig, onProgress?: (p: ModelProgress) => void): Promise<Result<ModelBackendInfo>>;
}

export interface ModelLoaderOptions<Api> {
  model: string;
  /** The ModelLoadProgress's role; none for the embedding model (records from before NLI models have none). */
  role?: ModelLoadProgress['role'];
  /** Names the worker in an error its start or load throws ('embedding worker'). */
  where: string;
  /** Starts the worker (its `new Worker(new URL(…))` stays in the client's file, where Vite finds it). */
  connect(): WorkerConnection<Api>;
  /** Where the worker looks for the files (modelSourcesFor). */
  sources: { allowRemote: boolean; useLocal: boolean };
  /** The client's settings: dtype, models folder, WebGPU, progress. */
  settings: ModelClientOptions;
  /** The dtype when the settings name none (none: the worker's own default). */
  defaultDtype?: string;
  /** The error `call` throws when the model cannot load (default: an Error with the load's message). */
  loadError?: (message: string) => Error;
}

export interface ModelLoader<Api> {
  /** Loads the model (once: concurrent and later calls share the load) and tells which backend runs it. */
  init(): Promise<Result<ModelBackendInfo>>;
  /**
   * Follows the model's loading: the listener gets the state so far at once (if loading has
   * begun, so a run that comes after the load still learns the backend) and every change after
   * it. Returns an unsubscribe.
   */
  watchLoad(listener: (state: ModelLoadProgress) => void): () => void;
  /** Ends the worker; the next init starts over. */
  dispose(): void;
  /** The worker of the current load (after init). */
  connection(): WorkerConnection<Api> | undefined;
  /** The backend of the last load that succeeded. */
  backend(): ModelBackendInfo | undefined;
  /**
   * Loads (once), then asks the worker: a failed load or a failed answer throws its message, a
   * signal aborted before the request goes out an AbortError ("<what> was cancelled"), and so
   * does an answer of kind 'aborted' (with its message).
   */
  call<T>(what: string, signal: AbortSignal | undefined, ask: (api: Comlink.Remote<Api>) => Promise<Result<T>>): Promise<T>;
}

/** What every model client offers besides its model's own work: the loader's init, watchLoad and dispose. */
export type ModelClientControls = Pick<ModelLoader<unknown>, 'init' | 'watchLoad' | 'dispose'>;

export function clientControls(loader: ModelLoader<unknown>): ModelClientControls {
  return { init: loader.init, watchLoad: loader.watchLoad, dispose: loader.dispose };
}

/**
 * The loaded model's identity (transformers/model-identity.ts), as its worker's load reported it:
 * what a clusterer keys its cached results by. Loads first; a load that failed, or a worker that
 * did not identify the model, throws.
 */
export function loadedIdentity(loader: ModelLoader<unknown>, model: string): (signal?: AbortSignal) => Promise<string> {
  return (signal) =>
    loader.call('loading', signal, async () => {
      const identity = loader.backend()?.identity;
      return identity ? { ok: true, value: identity } : { ok: false, error: { kind: 'model', message: `"${model}" was loaded without its identity`, where: 'model worker' } };
    });
}

export function createModelLoader<Api extends ModelWorkerInit>(options: ModelLoaderOptions<Api>): ModelLoader<Api> {
  const { model, role } = options;
  let worker: WorkerConnection<Api> | undefined;
  let initialized: Promise<Result<ModelBackendInfo>> | undefined;
  let load: ModelLoadProgress | undefined;
  let backend: ModelBackendInfo | undefined;
  const watchers = new Set<(state: ModelLoadProgress) => void>();
  const setLoad = (next: ModelLoadProgress) => {
    load = next;
    for (const w of watchers) w(next);
  };
  const start = (): ModelLoadProgress => (role ? { ...startModelLoad(model), role } : startModelLoad(model));
  const progressed = (p: ModelProgress) => {
    if (load) setLoad(applyModelProgress(load, p));
    options.settings.onProgress?.(p);
  };
  // Made when the load begins, so the models folder resolves against the page as it is then.
  const config = async (): Promise<ModelWorkerConfig> => {
    const { settings, sources } = options;
    const dtype = settings.dtype ?? options.defaultDtype;
    const remoteHost = typeof settings.remoteHost === 'function' ? await settings.remoteHost() : settings.remoteHost;
    return {
      model,
      ...(dtype ? { dtype } : {}),
      allowRemoteModels: sources.allowRemote,
      localModelPath: localModelPath(sources, settings.localModelUrl),
      webgpu: settings.webgpu ?? 'auto',
      ...(remoteHost ? { remoteHost } : {}),
    };
  };

  function dispose() {
    worker?.close();
    worker = undefined;
    initialized = undefined;
  }

  const init = () => {
    if (!initialized) {
      setLoad(start());
      worker = options.connect();
      // Comlink's Remote of a generic API does not resolve to callable members; Api extends ModelWorkerInit.
      const api = worker.api as unknown as Comlink.Remote<ModelWorkerInit>;
      initialized = config()
        .then((c): Promise<Result<ModelBackendInfo>> => api.init(c, Comlink.proxy(progressed)))
        .catch((e: unknown): Result<ModelBackendInfo> => ({ ok: false, error: errorInfo(e, options.where) }))
        .then((r) => {
          const before = load ?? start();
          if (r.ok) {
            backend = r.value;
            setLoad(modelLoaded(before, r.value));
          } else setLoad(modelFailed(before, r.error.message));
          // A failed load is not cached: the next call starts over (e.g. after allowing remote models).
          if (!r.ok) dispose();
          return r;
        });
    }
    return initialized;
  };

  return {
    init,
    dispose,
    watchLoad(listener) {
      watchers.add(listener);
      if (load) listener(load);
      return () => watchers.delete(listener);
    },
    connection: () => worker,
    backend: () => backend,
    async call(what, signal, ask) {
      const ready = await init();
      if (!ready.ok && ready.error.kind === HUB_UNREACHABLE) throw new HubUnreachableError(ready.error.message);
      if (!ready.ok) throw options.loadError ? options.loadError(ready.error.message) : new Error(ready.error.message);
      if (signal?.aborted) throw new DOMException(`${what} was cancelled`, 'AbortError');
      const r = await ask(worker!.api);
      // A worker that stopped on a cancel (the generation worker) says so by its kind.
      if (!r.ok) throw r.error.kind === 'aborted' ? new DOMException(r.error.message, 'AbortError') : new Error(r.error.message);
      return r.value;
    },
  };
}
