/**
 * Sampling throughput against the loopback mock with 200 ms latency per request and 16 requests in
 * flight: samples per second achieved vs the ideal (16 requests / 0.2 s × samples per request),
 * for one reply per request (Anthropic-style) and ten per request (OpenAI `n`). Target ≥ 90% of
 * ideal. Figures are printed, not asserted.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MemorySampleCache } from '../src/model/sample-cache';
import { runSampling } from '../src/pipeline/sampling';
import { createProvider } from '../src/providers/create-provider';
import type { ProviderKind } from '../src/model/provider';
import type { MockConfig, MockStats } from '../tests/mock/provider-server';

/** The mock runs in its own process (tests/mock/serve.ts), as it does for the browser tests. */
async function startMockProcess(): Promise<{ url: string; child: ChildProcess }> {
  const serve = fileURLToPath(new URL('../tests/mock/serve.ts', import.meta.url));
  const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
  const child = spawn(tsx, [serve], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const m = /^MOCK_URL=(\S+)/.exec(line);
    if (m) return { url: m[1], child };
  }
  throw new Error('the mock server did not start');
}

async function control<T>(url: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
  return (await res.json()) as T;
}

const LATENCY_MS = 200;
const CONCURRENCY = 16;

async function scenario(url: string, label: string, kind: ProviderKind, preset: string, model: string, perRequest: number, questions: number, n: number) {
  await control(url, '/__mock/reset', {});
  await control<unknown>(url, '/__mock/config', {
    apiKey: 'bench-key',
    latencyMs: LATENCY_MS,
    maxN: { openai: perRequest },
    questions: Array.from({ length: questions }, (_, i) => ({ match: `Bench question ${i}?`, id: `b${i}`, answers: { A: 2, B: 1 } })),
  } satisfies MockConfig);
  {
    const provider = createProvider({ kind, preset, model, baseUrl: `${url}/v1`, apiKey: 'bench-key', concurrency: CONCURRENCY });
    // Tell the provider the n limit up front, as a run after the first shortfall would know it.
    if (perRequest > 1) await provider.completeOnce({ messages: [{ role: 'user', content: 'warm-up' }], settings: { temperature: 1, maxTokens: 50 }, n: perRequest + 1 });
    const qs = Array.from({ length: questions }, (_, i) => ({ id: `b${i}`, question: `Bench question ${i}?`, answer: 'A' }));
    const start = performance.now();
    const r = await runSampling({ questions: qs, provider, settings: { temperature: 1, maxTokens: 50 }, n, cache: new MemorySampleCache(), concurrency: CONCURRENCY });
    const seconds = (performance.now() - start) / 1000;
    const samples = r.progress.samples.done;
    const achieved = samples / seconds;
    const ideal = (CONCURRENCY / (LATENCY_MS / 1000)) * perRequest;
    console.log(
      `  ${label.padEnd(34)} ${String(samples).padStart(5)} samples in ${seconds.toFixed(2)} s: ` +
        `${achieved.toFixed(1)} samples/s vs ideal ${ideal.toFixed(1)} → ${((100 * achieved) / ideal).toFixed(1)}% ` +
        `(state ${r.state}, max in flight ${(await control<MockStats>(url, '/__mock/stats')).maxInFlight})`,
    );
  }
}

export default async function bench(): Promise<void> {
  console.log(`sampling throughput: mock latency ${LATENCY_MS} ms, concurrency ${CONCURRENCY} (target ≥ 90% of ideal)`);
  const { url, child } = await startMockProcess();
  try {
    await scenario(url, '1 sample per request (anthropic)', 'anthropic', 'anthropic', 'claude-bench', 1, 16, 25);
    await scenario(url, '10 samples per request (openai n)', 'openai', 'vllm', 'bench-model', 10, 32, 50);
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await bench();
}
