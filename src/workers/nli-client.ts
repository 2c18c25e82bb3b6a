/**
 * The page's (or run worker's) side of the NLI worker: an `EntailmentDecider` (what the
 * entailment clusterer needs) backed by the module worker, created on first use, built like the
 * embedding client. Model files come from the app's own /models/ folder; the hub is asked only for
 * a model the app does not ship, and only when the caller allows remote models.
 */
import type { EntailmentDecider } from '../clustering/entailment';
import type { EmbeddingDtype } from '../clustering/embedding-models';
import { DEFAULT_NLI_MODEL, isShippedNliModel } from '../clustering/nli-models';
import type { NliWorkerApi } from './nli.worker';
import { NLI_FAILED_KIND } from '../model/entailment-cache';
import { clientControls, createModelLoader, loadedIdentity, modelSourcesFor, type ModelClientControls, type ModelClientOptions } from './model-client';
import { connectApi } from './worker-connection';

export type NliClientOptions = ModelClientOptions<EmbeddingDtype>;

/** An EntailmentDecider with its model's loading: init (the backend chosen), watchLoad, dispose (model-client.ts). */
export interface NliClient extends EntailmentDecider, ModelClientControls {}

/** Where the worker looks for a model's files (model-client.ts says why). */
export function nliModelSources(model: string, { allowRemoteModels }: Pick<NliClientOptions, 'allowRemoteModels'>): { allowRemote: boolean; useLocal: boolean } {
  return modelSourcesFor({ shipped: isShippedNliModel(model), allowRemoteModels });
}

export function createNliClient(options: NliClientOptions = {}): NliClient {
  const model = options.model ?? DEFAULT_NLI_MODEL;
  const loader = createModelLoader<NliWorkerApi>({
    model,
    role: 'nli',
    where: 'NLI worker',
    connect: () => connectApi<NliWorkerApi>(() => new Worker(new URL('./nli.worker.ts', import.meta.url), { type: 'module', name: 'nli' }), { name: 'nli' }),
    sources: nliModelSources(model, options),
    settings: options,
    defaultDtype: 'q8',
  });
  return {
    model,
    ...clientControls(loader),
    identity: loadedIdentity(loader, model),
    decide: (pairs, signal) => loader.call(NLI_FAILED_KIND, signal, (api) => api.decide(pairs)),
    score: (pairs, signal) => loader.call(NLI_FAILED_KIND, signal, (api) => api.score(pairs)),
  };
}
