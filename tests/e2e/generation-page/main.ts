/**
 * Test-only page (built only when Vitest builds the app, see vite.config.ts): drives the real
 * generation client and worker on the repo's tiny causal model, with remote models off, and
 * exposes a small hook for tests/e2e/generation.test.ts and the benchmark. Nothing here ships in
 * a production build.
 */
import { createGenerationClient } from '../../../src/workers/generation-client';
import type { ChatMessage } from '../../../src/model/provider';
import type { ModelLoadProgress } from '../../../src/model/run-spec';
import type { GenerateRequest } from '../../../src/providers/in-browser/generate';

// This page sits three folders below the app root, where /models/ is.
const client = createGenerationClient({ model: 'tiny-causal-lm', allowRemoteModels: false, localModelUrl: '../../../models/' });
const loads: ModelLoadProgress[] = [];
client.watchLoad((state) => loads.push(state));

const hook = {
  loads,
  init: () => client.init(),
  generate: (request: GenerateRequest) => client.generate(request),
  /** A request cancelled as it is sent: what it throws (its name), then whether the next request still works. */
  cancelled: async (request: GenerateRequest) => {
    const controller = new AbortController();
    const running = client.generate(request, controller.signal);
    controller.abort();
    const thrown = await running.then(() => 'nothing', (e: Error) => e.name);
    const after = await client.generate(request);
    return { thrown, after: after.replies.length };
  },
  notes: () => client.notes?.() ?? [],
  /** `rounds` requests of `n` replies each: replies and generated tokens per second, in the worker on WASM. */
  throughput: async (messages: ChatMessage[], n: number, rounds: number) => {
    await client.generate({ messages, n: 1, temperature: 1, maxTokens: 16 });
    let tokens = 0;
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) tokens += (await client.generate({ messages, n, temperature: 1, maxTokens: 16 })).outputTokens;
    const seconds = (performance.now() - t0) / 1000;
    return { samplesPerSecond: (n * rounds) / seconds, tokensPerSecond: tokens / seconds, notes: client.notes?.() ?? [] };
  },
};
(globalThis as unknown as { __semece: typeof hook }).__semece = hook;
document.getElementById('status')!.textContent = 'ready';
