/**
 * The real stages of a run, built for its settings and keys: the providers' sampling, the
 * exact / judge / embedding clusterers and the alias / judge graders. Pure of DOM, so the worker
 * and Node tests use the very same wiring.
 */
import { createExactClusterer } from '../clustering/exact';
import { createEmbeddingClusterer, type Embedder } from '../clustering/embedding';
import type { EmbeddingCache } from '../model/embedding-cache';
import { createJudgeClusterer } from '../clustering/judge';
import type { Clusterer } from '../clustering/types';
import { createAliasGrader } from '../grading/alias';
import { createJudgeGrader } from '../grading/judge';
import type { Grader } from '../grading/types';
import { createProvider } from '../providers';
import { withItsKey, type ClusteringSpec, type GradingSpec, type RunKeys } from '../model/run-spec';
import { sampleWithProviders } from './runner-sampling';
import type { ClustererHooks, RunnerStages } from './runner-stages';

export interface StageOptions {
  score: RunnerStages['score'];
  /** Text → vectors for the embedding clusterer (the embedding worker in the browser); `onLoad` follows the model's loading. */
  embedder?: (spec: { model: string; allowRemote: boolean }, onLoad?: ClustererHooks['onModelLoad']) => Embedder;
  embeddingCache?: EmbeddingCache;
}

export function clustererFor(spec: ClusteringSpec, keys: RunKeys, options: StageOptions, hooks: ClustererHooks = {}): Clusterer {
  switch (spec.method) {
    case 'exact':
      return createExactClusterer();
    case 'judge':
      return createJudgeClusterer({ provider: createProvider(withItsKey(spec.judge, keys)), prompt: spec.prompt });
    case 'embedding':
      if (!options.embedder) {
        return { method: 'embedding', cluster: async () => ({ ok: false, error: { kind: 'unavailable', message: 'Embeddings cannot be computed here; choose exact match or the judge.' } }) };
      }
      return createEmbeddingClusterer({ embedder: options.embedder({ model: spec.model, allowRemote: spec.allowRemote ?? false }, hooks.onModelLoad), threshold: spec.threshold, cache: options.embeddingCache });
  }
}

export function graderFor(spec: GradingSpec, keys: RunKeys): Grader {
  return spec.method === 'alias' ? createAliasGrader() : createJudgeGrader({ provider: createProvider(withItsKey(spec.judge, keys)), prompt: spec.prompt });
}

export function realStages(options: StageOptions): RunnerStages {
  return {
    sample: sampleWithProviders,
    clusterer: (spec, keys, hooks) => clustererFor(spec, keys, options, hooks),
    grader: graderFor,
    score: options.score,
  };
}
