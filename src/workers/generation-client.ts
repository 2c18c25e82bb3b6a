/**
 * The run worker's (or page's) side of the generation worker: a `ReplyGenerator` (what the
 * in-browser provider needs) backed by the module worker, created on first use, built like the
 * embedding and NLI clients on model-client.ts. A shipped model's files come from the app's own
 * /models/ folder and the hub is never asked for it; any other model comes from the Hugging Face
 * hub when allowed, and is kept by the browser's cache after its first download.
 */
import { ModelLoadError } from '../model/model-load-error';
import type { GenerateRequest, GenerateResult } from '../providers/in-browser/generate';
import { isShippedGenerationModel } from '../providers/in-browser/models';
import type { ReplyGenerator } from '../providers/in-browser/in-browser-provider';
import type { GenerationWorkerApi } from './generation.worker';
import { clientControls, createModelLoader, modelSourcesFor, type ModelClientControls, type ModelClientOptions } from './model-client';
import { connectApi } from './worker-connection';

export interface GenerationClientOptions {
  model: string;
  /** Let the worker fetch a model the app does not ship from the Hugging Face hub (default false). */
  allowRemoteModels?: boolean;
  /** Where the app's models folder is (default: `models/` beside the page's base URL). */
  localModelUrl?: string;
  webgpu?: 'auto' | 'off';
  /** Where hub files come from (model-client.ts). */
  remoteHost?: ModelClientOptions['remoteHost'];
  /** Model download / load progress. */
  onProgress?: ModelClientOptions['onProgress'];
}

/** A ReplyGenerator with its model's loading: init (the backend chosen), watchLoad, dispose (model-client.ts). */
export interface GenerationClient extends ReplyGenerator, ModelClientControls {
  model: string;
}

/** Where the worker looks for a model's files (as for the embedding and NLI models, model-client.ts). */
export function generationModelSources(model: string, { allowRemoteModels }: Pick<GenerationClientOptions, 'allowRemoteModels'>): { allowRemote: boolean; useLocal: boolean } {
  return modelSourcesFor({ shipped: isShippedGenerationModel(model), allowRemoteModels });
}

export function createGenerationClient(options: GenerationClientOptions): GenerationClient {
  const model = options.model;
  const loader = createModelLoader<GenerationWorkerApi>({
    model,
    role: 'generation',
    where: 'generation worker',
    connect: () => connectApi<GenerationWorkerApi>(() => new Worker(new URL('./generation.worker.ts', import.meta.url), { type: 'module', name: 'generation' }), { name: 'generation' }),
    sources: generationModelSources(model, options),
    settings: options,
    // The in-browser provider reads it by its name: a model that cannot load stops the run.
    loadError: (message) => new ModelLoadError(message),
  });
  let nextId = 1;
  return {
    model,
    ...clientControls(loader),
    notes: () => {
      const backend = loader.backend();
      return backend ? [`generated in this browser on ${backend.device === 'webgpu' ? 'WebGPU' : 'WASM'}${backend.note ? ` (${backend.note.replace(/;\s*using WASM$/, '')})` : ''}`] : [];
    },
    // Each request has an id, so that an abort cancels that request in the worker at its next token.
    generate: (request: GenerateRequest, signal?: AbortSignal): Promise<GenerateResult> =>
      loader.call('generation', signal, async (api) => {
        const id = nextId++;
        const onAbort = () => void api.cancel(id);
        signal?.addEventListener('abort', onAbort, { once: true });
        try {
          return await api.generate(id, request);
        } finally {
          signal?.removeEventListener('abort', onAbort);
        }
      }),
  };
}
