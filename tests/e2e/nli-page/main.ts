/**
 * Test-only page (built only when Vitest builds the app, see vite.config.ts): drives the real NLI
 * client and worker on the repo's tiny classifier, with remote models off, and exposes a small
 * hook for tests/e2e/nli.test.ts and the benchmark. Nothing here ships in a production build.
 */
import { createNliClient } from '../../../src/workers/nli-client';
import { createEntailmentClusterer, type NliPair } from '../../../src/clustering/entailment';
import type { ModelProgress } from '../../../src/model/progress';
import { MemoryEntailmentCache } from '../../mock/memory-entailment-cache';

const progress: ModelProgress[] = [];
const loads: unknown[] = [];
// This page sits three folders below the app root, where /models/ is.
const client = createNliClient({ model: 'tiny-nli', allowRemoteModels: false, localModelUrl: '../../../models/', onProgress: (p) => progress.push(p) });
client.watchLoad((state) => loads.push(state));
const cache = new MemoryEntailmentCache();
let decided = 0;
const clusterer = createEntailmentClusterer({ decider: client, cache, onDecided: (n) => (decided += n) });

const hook = {
  progress,
  loads,
  init: () => client.init(),
  decide: (pairs: NliPair[]) => client.decide(pairs),
  /** Clusters with the page's cache; `decided` is how many pairs went to the worker so far. */
  cluster: async (question: string, answers: string[]) => ({ result: await clusterer.cluster(question, answers), decided }),
  /** Pairs per second over `rounds` batches of `pairs` (for the benchmark). */
  throughput: async (pairs: NliPair[], rounds: number) => {
    await client.decide(pairs.slice(0, 1));
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) await client.decide(pairs);
    return (pairs.length * rounds) / ((performance.now() - t0) / 1000);
  },
};
(globalThis as unknown as { __semece: typeof hook }).__semece = hook;
document.getElementById('status')!.textContent = 'ready';
