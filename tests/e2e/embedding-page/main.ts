/**
 * Test-only page (built only when Vitest builds the app, see vite.config.ts): drives the real
 * embedding client and worker on the repo's tiny model, with remote models off, and exposes a
 * small hook for tests/e2e/embedding.test.ts. Nothing here ships in a production build.
 */
import { createEmbeddingClient } from '../../../src/workers/embedding-client';
import { createEmbeddingClusterer } from '../../../src/clustering/embedding';
import type { ModelProgress } from '../../../src/model/progress';

const progress: ModelProgress[] = [];
// This page sits three folders below the app root, where /models/ is.
const client = createEmbeddingClient({ model: 'tiny-embedder', allowRemoteModels: false, localModelUrl: '../../../models/', onProgress: (p) => progress.push(p) });

const hook = {
  progress,
  init: () => client.init(),
  embed: async (texts: string[]) => (await client.embed(texts)).map((v) => Array.from(v)),
  cluster: (answers: string[], threshold: number) => createEmbeddingClusterer({ embedder: client, threshold }).cluster('q', answers),
  /** Texts per second over `rounds` batches of `texts` (for the benchmark). */
  throughput: async (texts: string[], rounds: number) => {
    await client.embed(texts.slice(0, 1));
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) await client.embed(texts);
    return (texts.length * rounds) / ((performance.now() - t0) / 1000);
  },
};
(globalThis as unknown as { __semece: typeof hook }).__semece = hook;
document.getElementById('status')!.textContent = 'ready';
