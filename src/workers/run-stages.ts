/**
 * The real stage implementations a run uses in the worker: the providers' sampling, the
 * clusterers, the graders and the scorer, each built for the run's settings with the run's keys.
 */
import { createExactClusterer } from '../clustering/exact';
import { createJudgeClusterer } from '../clustering/judge';
import type { Clusterer } from '../clustering/types';
import { createProvider } from '../providers';
import { isProviderError } from '../providers/errors';
import type { RunnerStages } from '../pipeline/runner-stages';
import { withItsKey } from '../pipeline/runner';
import type { ClusteringSpec, ModelSpec, RunKeys } from '../pipeline/run-types';
import type { Result } from '../pipeline/types';
import type { Stores } from '../store';
import type { ConnectionCheck } from './protocol';
import { errorInfo } from './transfer';

function clustererFor(spec: ClusteringSpec, keys: RunKeys): Clusterer {
  switch (spec.method) {
    case 'exact':
      return createExactClusterer();
    case 'judge':
      return createJudgeClusterer({ provider: createProvider(withItsKey(spec.judge, keys)), prompt: spec.prompt });
    case 'embedding':
      return unavailableClusterer('embedding', 'The embedding clusterer is not wired into runs yet; choose exact match or the judge.');
  }
}

function unavailableClusterer(method: Clusterer['method'], message: string): Clusterer {
  return { method, cluster: async () => ({ ok: false, error: { kind: 'unavailable', message } }) };
}

export function runnerStages(_stores: Stores): RunnerStages {
  return {
    sample: async () => ({ ok: false, error: { kind: 'unavailable', message: 'Sampling is not wired in yet.' } }),
    clusterer: clustererFor,
    grader: () => ({ grade: async () => ({ ok: false, error: { kind: 'unavailable', message: 'Grading is not wired in yet.' } }) }),
    score: () => {
      throw new Error('Scoring is not wired in yet.');
    },
  };
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
    return { ok: false, error: errorInfo(e, `${model.preset} ${model.model}`) };
  }
}
