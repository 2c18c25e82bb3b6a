/**
 * The page's side of the embedding worker: an `Embedder` (what the embedding clusterer needs)
 * backed by the module worker, created on first use. Model files come from the app's own
 * /models/ folder; the hub is asked only for a model the app does not ship, and only when the
 * caller allows remote models. Downloaded files are kept by the browser (transformers-env.ts).
 * The worker and loading plumbing it shares with the NLI client is in model-client.ts.
 */
import type { Embedder } from '../clustering/embedding';
import { DEFAULT_EMBEDDING_MODEL, isShippedEmbeddingModel, type EmbeddingDtype } from '../clustering/embedding-models';
import type { EmbeddingWorkerApi } from './embedding.worker';
import { clientControls, createModelLoader, loadedIdentity, modelSourcesFor, type ModelClientControls, type ModelClientOptions } from './model-client';
import { connectApi } from './worker-connection';

export interface EmbeddingClientOptions extends ModelClientOptions<EmbeddingDtype> {
  /** Look for `<model>/…` under the app's /models/ first (default: yes, except for a hub model
   * when remote models are allowed, which would only produce 404s before going to the hub). */
  useLocalModels?: boolean;
}

/** An Embedder with its model's loading: init (the backend chosen), watchLoad, dispose (model-client.ts). */
export interface EmbeddingClient extends Embedder, ModelClientControls {}

/** Where the worker looks for a model's files (model-client.ts says why). */
export function modelSources(model: string, options: Pick<EmbeddingClientOptions, 'allowRemoteModels' | 'useLocalModels'>): { allowRemote: boolean; useLocal: boolean } {
  return modelSourcesFor({ shipped: isShippedEmbeddingModel(model), ...options });
}

export function createEmbeddingClient(options: EmbeddingClientOptions = {}): EmbeddingClient {
  const model = options.model ?? DEFAULT_EMBEDDING_MODEL;
  const loader = createModelLoader<EmbeddingWorkerApi>({
    model,
    where: 'embedding worker',
    connect: () => connectApi<EmbeddingWorkerApi>(() => new Worker(new URL('./embedding.worker.ts', import.meta.url), { type: 'module', name: 'embedding' }), { name: 'embedding' }),
    sources: modelSources(model, options),
    settings: options,
    defaultDtype: 'q8',
  });
  return {
    model,
    ...clientControls(loader),
    identity: loadedIdentity(loader, model),
    embed: (texts, signal) => loader.call('embedding', signal, (api) => api.embed(texts)),
  };
}
