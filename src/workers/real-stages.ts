/**
 * The one place a run's stage ports are wired to real implementations: the providers' sampling,
 * the clusterers (each method's row of clustering/clusterer-registry.ts), the alias / judge graders and the scorer, each built
 * for the run's settings with the run's keys. `realStages` is pure of DOM, so the worker and Node
 * tests use the very same wiring; `runnerStages` adds what only the worker has (the stores'
 * embedding and entailment caches, one embedding worker and one NLI worker per model).
 */
import type { Embedder } from '../clustering/embedding';
import type { EmbeddingCache } from '../model/embedding-cache';
import type { EntailmentDecider } from '../clustering/entailment';
import type { EntailmentCache } from '../model/entailment-cache';
import { createNliClient, type NliClient } from './nli-client';
import { createClusterer } from '../clustering/clusterer-registry';
import type { Clusterer } from '../clustering/clusterer';
import { createGrader } from '../grading/grader-registry';
import type { Grader } from '../grading/grader';
import { createProvider } from '../providers/create-provider';
import { isProviderError } from '../providers/errors';
import { scoreRun } from '../pipeline/run-scoring';
import type { Result } from '../model/rows';
import type { Stores } from '../store/stores';
import type { ConnectionCheck } from './protocol';
import { errorInfo } from '../model/app-error';
import { scrubbedError, secretScrubber } from '../providers/secret-scrub';
import { createEmbeddingClient, type EmbeddingClient } from './embedding-client';
import { withItsKey, type ClusteringSpec, type GradingSpec, type ModelLoadProgress, type ModelSpec, type RunKeys } from '../model/run-spec';
import { sampleWith, sampleWithProviders } from '../pipeline/sample-stage';
import type { ClustererHooks, RunnerStages, SampleStage } from '../pipeline/stage-ports';
import { createInBrowserProvider, isInBrowserModel, type ReplyGenerator } from '../providers/in-browser/in-browser-provider';
import { isShippedGenerationModel } from '../providers/in-browser/models';
import { createGenerationClient, type GenerationClient } from './generation-client';

export interface StageOptions {
  score: RunnerStages['score'];
  /** Text → vectors for the embedding clusterer (the embedding worker in the browser); `onLoad` follows the model's loading. */
  embedder?: (spec: { model: string; allowRemote: boolean }, onLoad?: ClustererHooks['onModelLoad']) => Embedder;
  embeddingCache?: EmbeddingCache;
  /** Text pairs → NLI labels for the entailment clusterer (the NLI worker in the browser); `onLoad` follows the model's loading. */
  decider?: (spec: { model: string; allowRemote: boolean }, onLoad?: ClustererHooks['onModelLoad']) => EntailmentDecider;
  entailmentCache?: EntailmentCache;
  /** Prompts → replies for an in-browser model (the generation worker in the browser); `onLoad` follows the model's loading. */
  generator?: (model: string, onLoad?: (state: ModelLoadProgress) => void) => ReplyGenerator;
}

/** The sample stage: an in-browser model through its generator, any other through its HTTP provider. */
export function sampleStage(options: StageOptions): SampleStage {
  return (args) => {
    if (!isInBrowserModel(args.model)) return sampleWithProviders(args);
    const generator = options.generator;
    if (!generator) return Promise.resolve({ ok: false, error: { kind: 'unavailable', message: 'An in-browser model cannot run here; choose a provider with an API.', where: `${args.model.preset} ${args.model.model}` } });
    return sampleWith((config) => createInBrowserProvider(config, generator(config.model, args.onModelLoad)), args);
  };
}

/** The run's clusterer, built by its method's row (clustering/clusterer-registry.ts) from what this realm has. */
export function clustererFor(spec: ClusteringSpec, keys: RunKeys, options: StageOptions, hooks: ClustererHooks = {}): Clusterer {
  const { embedder, decider } = options;
  return createClusterer(spec, {
    provider: (judge) => createProvider(withItsKey(judge, keys)),
    embedder: embedder && ((source) => embedder(source, hooks.onModelLoad)),
    embeddingCache: options.embeddingCache,
    decider: decider && ((source) => decider(source, hooks.onModelLoad)),
    entailmentCache: options.entailmentCache,
  });
}

export function graderFor(spec: GradingSpec, keys: RunKeys): Grader {
  return createGrader(spec, { provider: (judge) => createProvider(withItsKey(judge, keys)) });
}

export function realStages(options: StageOptions): RunnerStages {
  return {
    sample: sampleStage(options),
    clusterer: (spec, keys, hooks) => clustererFor(spec, keys, options, hooks),
    grader: graderFor,
    score: options.score,
  };
}

/** The stages a run uses in the worker. */
export function runnerStages(stores: Stores, appBase: string): RunnerStages {
  const embedders = new Map<string, EmbeddingClient>();
  const deciders = new Map<string, NliClient>();
  const generators = new Map<string, GenerationClient>();
  // A mirror the user named in the settings (model/model-hub.ts), read as each model's load begins.
  const remoteHost = () => stores.settings.getModelHub();
  return realStages({
    // One generation worker per in-browser model, like the embedding workers. A model the app does
    // not ship comes from the hub: choosing it in the wizard, with its size shown, is the consent.
    generator: (model, onLoad) => {
      if (!generators.has(model)) generators.set(model, createGenerationClient({ model, allowRemoteModels: !isShippedGenerationModel(model), localModelUrl: new URL('models/', appBase).href, remoteHost }));
      const client = generators.get(model)!;
      if (onLoad) client.watchLoad(onLoad);
      return client;
    },
    embeddingCache: stores.embeddings,
    // One embedding worker per model, created on first use and kept for the worker's lifetime.
    embedder: ({ model, allowRemote }, onLoad) => {
      const id = `${model}|${allowRemote}`;
      if (!embedders.has(id)) embedders.set(id, createEmbeddingClient({ model, allowRemoteModels: allowRemote, localModelUrl: new URL('models/', appBase).href, remoteHost }));
      const client = embedders.get(id)!;
      // Kept for the client's life (one per run that used it); a finished run's listener ignores it (runner.ts).
      if (onLoad) client.watchLoad(onLoad);
      return client;
    },
    entailmentCache: stores.entailment,
    // One NLI worker per model, like the embedding workers.
    decider: ({ model, allowRemote }, onLoad) => {
      const id = `${model}|${allowRemote}`;
      if (!deciders.has(id)) deciders.set(id, createNliClient({ model, allowRemoteModels: allowRemote, localModelUrl: new URL('models/', appBase).href, remoteHost }));
      const client = deciders.get(id)!;
      if (onLoad) client.watchLoad(onLoad);
      return client;
    },
    score: (input) => scoreRun(input),
  });
}

/** One cheap request (a one-word reply) to see that the base URL, model and key work. */
export async function checkConnection(model: ModelSpec, apiKey: string | undefined): Promise<Result<ConnectionCheck>> {
  try {
    const provider = createProvider({ ...model, apiKey, maxRetries: 0, timeoutMs: 20_000 });
    const started = Date.now();
    const completion = await provider.completeOnce({ messages: [{ role: 'user', content: 'Reply with the single word: ready' }], settings: { temperature: 0, maxTokens: 8 }, n: 1 });
    return { ok: true, value: { ms: Date.now() - started, reply: (completion.replies[0]?.text ?? '').trim().slice(0, 200) } };
  } catch (e) {
    if (isProviderError(e)) return { ok: false, error: { ...e.toInfo(), status: e.status ?? undefined, where: `${model.preset} ${model.model}` } };
    return { ok: false, error: scrubbedError(errorInfo(e, `${model.preset} ${model.model}`), secretScrubber([apiKey])) };
  }
}
