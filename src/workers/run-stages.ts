/**
 * The real stage implementations a run uses in the worker: the providers' sampling, the
 * clusterers, the graders and the scorer, each built for the run's settings with the run's keys.
 */
import { createProvider } from '../providers';
import { isProviderError } from '../providers/errors';
import type { RunnerStages } from '../pipeline/runner-stages';
import { realStages } from '../pipeline/runner-impl';
import { scoreRun } from '../pipeline/runner-score';
import type { ModelSpec } from '../model/run-spec';
import type { Result } from '../model/rows';
import type { Stores } from '../store';
import type { ConnectionCheck } from './protocol';
import { errorInfo } from './transfer';
import { createEmbeddingClient, type EmbeddingClient } from './embedding-client';

/** The stages a run uses in the worker. */
export function runnerStages(stores: Stores, appBase: string): RunnerStages {
  const embedders = new Map<string, EmbeddingClient>();
  return realStages({
    embeddingCache: stores.embeddings,
    // One embedding worker per model, created on first use and kept for the worker's lifetime.
    embedder: ({ model, allowRemote }, onLoad) => {
      const id = `${model}|${allowRemote}`;
      if (!embedders.has(id)) embedders.set(id, createEmbeddingClient({ model, allowRemoteModels: allowRemote, localModelUrl: new URL('models/', appBase).href }));
      const client = embedders.get(id)!;
      // Kept for the client's life (one per run that used it); a finished run's listener ignores it (runner.ts).
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
    return { ok: false, error: errorInfo(e, `${model.preset} ${model.model}`) };
  }
}
